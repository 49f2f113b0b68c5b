// Ajv reports a failed anyOf as the errors of every branch plus the anyOf itself. For a key record
// whose `key_type` is `phone` but whose `key` is not E.164, that is ten errors, nine of them saying
// "key_type must be email/cpf/…". This keeps the branch the data was evidently aimed at: branches
// that failed on a discriminating keyword (const, enum, not) were never meant for it; of the rest,
// the one with the fewest errors wins. With no such branch, the anyOf error itself stands. A failed
// oneOf is read the same way: the contract's oneOf (BeneficiaryEntity, one branch per kind of holder)
// has branches told apart by a const, so it fails only when no branch matches, never when two do.
import type { GeneratedValidatorError } from '../generated/validators.js';

const DISCRIMINATING = new Set(['const', 'enum', 'not']);
const ALTERNATIVES = new Set(['anyOf', 'oneOf']);

const isUnder = (path: string, parent: string): boolean => path === parent || path.startsWith(`${parent}/`);

function branchOf(error: GeneratedValidatorError, anyOfPath: string): string {
  const prefix = `${anyOfPath}/`;
  // Errors from a `$ref`'d branch carry the referenced schema's path; they form their own group.
  return error.schemaPath.startsWith(prefix) ? error.schemaPath.slice(prefix.length).split('/')[0]! : '$ref';
}

/**
 * When every branch failed on a \`const\` of the same member (a holder's \`document_type\` that is neither
 * \`cpf\` nor \`cnpj\`), that member is what is wrong: one \`enum\` error on it, its values the branches'
 * constants. Undefined when the branches are not told apart that way.
 */
function unknownTag(branches: GeneratedValidatorError[][]): GeneratedValidatorError | undefined {
  const tags = branches.map((list) => list.find((e) => e.keyword === 'const'));
  const first = tags[0];
  if (branches.length < 2 || !first || tags.some((tag) => tag?.instancePath !== first.instancePath)) return undefined;
  return {
    instancePath: first.instancePath,
    schemaPath: first.schemaPath,
    keyword: 'enum',
    params: { allowedValues: tags.map((tag) => tag!.params.allowedValue) },
  };
}

export function collapseAnyOf(errors: readonly GeneratedValidatorError[]): GeneratedValidatorError[] {
  const kept = errors.map(() => true);
  const replacement = new Map<number, GeneratedValidatorError[]>();
  for (let i = 0; i < errors.length; i += 1) {
    const anyOf = errors[i]!;
    if (!ALTERNATIVES.has(anyOf.keyword)) continue;
    // Its branch errors are the ones right before it, at or below its instance path.
    let start = i;
    // kept[-1] is undefined, so the walk stops at the start of the list.
    while (kept[start - 1] && isUnder(errors[start - 1]!.instancePath, anyOf.instancePath)) start -= 1;
    const branches = new Map<string, GeneratedValidatorError[]>();
    for (let j = start; j < i; j += 1) {
      const key = branchOf(errors[j]!, anyOf.schemaPath);
      branches.set(key, [...(branches.get(key) ?? []), errors[j]!]);
      kept[j] = false;
    }
    const aimed = [...branches.values()]
      .filter((list) => !list.some((e) => DISCRIMINATING.has(e.keyword)))
      .sort((a, b) => a.length - b.length)[0];
    kept[i] = false;
    replacement.set(i, aimed ?? [unknownTag([...branches.values()]) ?? anyOf]);
  }
  const out: GeneratedValidatorError[] = [];
  errors.forEach((error, i) => {
    if (kept[i]) out.push(error);
    out.push(...(replacement.get(i) ?? []));
  });
  return out;
}
