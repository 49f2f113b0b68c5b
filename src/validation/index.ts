// Pre-flight validators: the spec's own schemas (compiled at build time into src/generated/validators.js)
// plus what JSON Schema cannot say of the identifiers people type (src/validation/identifiers.ts): the
// CPF's check digits, and a rule in words with an example where the schema would show a pattern.
import { listPixKeysQuery, updateNaturalPersonBody, updateNaturalPersonQuery } from '../generated/validators.js';
import { canonicalIdentifier, canonicalUpdate, IDENTIFIER_FORMS, UPDATE_IDENTIFIERS } from './identifiers.js';
import { issueAt, runValidator, type Target, type ValidationIssue } from './issues.js';

export {
  canonicalIdentifier,
  canonicalUpdate,
  isValidCnpj,
  isValidCpf,
  type CanonicalIdentifier,
  type CanonicalUpdate,
  type IdentifierKind,
  type IdentifierProblem,
  type IdentifierProblemCode,
} from './identifiers.js';
export type { ValidationIssue };
export { issueAt };

const fieldAt = (root: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (node, segment) =>
      node !== null && typeof node === 'object' && Object.hasOwn(node, segment)
        ? (node as Record<string, unknown>)[segment]
        : undefined,
    root,
  );

/**
 * The schema's issues, with each identifier's (the CPF, the phone number, the CEP) said as the
 * identifier rule: the form and an example instead of a pattern and lengths, and the CPF's check digits.
 */
function withIdentifierRules(target: Target, data: unknown, issues: ValidationIssue[]): ValidationIssue[] {
  const out = [...issues];
  for (const identifier of UPDATE_IDENTIFIERS) {
    if (identifier.in !== target) continue;
    const value = fieldAt(data, identifier.path);
    // Absent or not text: the schema's issue ("is required", "must be a string") says it already.
    if (typeof value !== 'string') continue;
    const { issuePath: path } = identifier;
    const canonical = canonicalIdentifier(identifier.kind, value, path);
    let rule: string | undefined;
    if (canonical.problem) rule = canonical.problem.rule;
    else if (canonical.value !== value) {
      // Written as people write it: the client sends it canonical, but this check is of the contract's form.
      const form = IDENTIFIER_FORMS[identifier.kind];
      rule = `must be sent in the contract's form, without separators, e.g. ${form.canonicalExample} (the client, updateMany and the command line send ${form.example} that way)`;
    }
    if (rule === undefined) continue;
    const kept = out.filter((issue) => issue.path !== path);
    out.length = 0;
    out.push(...kept, issueAt(path, rule));
  }
  return out;
}

/** Checks an update body in the contract's form; `[]` when it is valid. */
export function validateNaturalPersonUpdate(body: unknown): ValidationIssue[] {
  return withIdentifierRules('body', body, runValidator(updateNaturalPersonBody, body, 'body'));
}

/** Checks `{ Account, DocumentNumber }` in the contract's form, including the CPF check digits; `[]` when valid. */
export function validateUpdateNaturalPersonQuery(query: unknown): ValidationIssue[] {
  return withIdentifierRules('query', query, runValidator(updateNaturalPersonQuery, query, 'query'));
}

/**
 * The pre-flight rule of an update, as `updateNaturalPerson` applies it before sending: the query
 * (`{ Account, DocumentNumber }`) and the body to send, and every issue of either (`[]` when the
 * update may be sent). Every surface that sends an update (the client, and so `updateMany`, and
 * `verify --allow-writes`) calls this one function and sends what it returns.
 */
export function preflightUpdate<Q extends { Account: unknown; DocumentNumber: unknown }, B>(
  query: Q,
  body: B,
): { query: Q; body: B; issues: ValidationIssue[] } {
  // The identifiers as people write them (`529.982.247-25`, `01310-100`) in the contract's form first
  // (src/validation/identifiers.ts); one that cannot be is named by the checks below, with an example.
  const canonical = canonicalUpdate(query, body);
  return {
    query: canonical.query,
    body: canonical.body,
    issues: [...validateUpdateNaturalPersonQuery(canonical.query), ...validateNaturalPersonUpdate(canonical.body)],
  };
}

/** Checks `{ limit?, cursor? }`; `[]` when valid. */
export function validateListPixKeysQuery(query: unknown): ValidationIssue[] {
  return runValidator(listPixKeysQuery, query, 'query');
}
