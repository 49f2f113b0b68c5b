// Checks one response against the contract's documented responses. Pure: the contract table (the
// generated response validators, loaded on demand by its callers) and the rule wording are passed in.
import { ARRAY_ITEMS_MAX } from '../generated/bounds.js';
import type { DocumentedResponse } from '../generated/response-validators.js';
import type { GeneratedValidator, GeneratedValidatorError } from '../generated/validators.js';
import { collapseAnyOf } from './anyof.js';
import { documentProblems } from './documents.js';
import type { DriftPart, DriftProblem } from '../call-events.js';
import type { ObservedResponse } from './problems.js';

export type ResponseContract = Readonly<Record<string, Readonly<Record<string, DocumentedResponse>>>>;

const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** `application/problem+json; charset=utf-8` → `application/problem+json`. */
export function mediaTypeOf(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  // split always yields a first element.
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type ? type : null;
}

export const isJsonMediaType = (type: string | null): boolean =>
  type !== null && (type === 'application/json' || /^[\w.+-]+\/[\w.+-]+\+json$/.test(type));

/** The documented response for a status: the exact code, then its range (`4XX`), then `default`. */
export function documentedResponse(
  contract: ResponseContract,
  operationId: string,
  status: number,
): DocumentedResponse | undefined {
  const responses = contract[operationId];
  if (!responses) return undefined;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

function headerObject(
  headers: ObservedResponse['headers'],
  types: DocumentedResponse['headerTypes'],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (value: string | undefined, name: string): void => {
    if (value === undefined) return;
    const lower = name.toLowerCase();
    // Header values are text; the contract types some as integers (Retry-After). Only a plain
    // decimal becomes a number, so `Retry-After: soon` still breaks the integer rule. (Number
    // ignores the spaces around it, as the pattern does.)
    out[lower] = types[lower] && /^\s*-?[0-9]+(\.[0-9]+)?\s*$/.test(value) ? Number(value) : value;
  };
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function')
    (headers as Headers).forEach(add);
  else for (const [name, value] of Object.entries(headers as Record<string, string | undefined>)) add(value, name);
  return out;
}

/**
 * The fast validator (first error only, cheap lengths) answers for data that conforms, which is
 * nearly all of it; only data it rejects goes through the full validator, for every problem. The
 * fast one never accepts what the full one rejects (see fastPathSchema in the generator); when it
 * rejects what the full one accepts, the full one's `[]` stands.
 */
/** The rule an Ajv error stands for, in words, never the value (src/validation/rules.ts `ruleOf`). */
export type RuleWords = (error: GeneratedValidatorError) => string;

/**
 * The most problems one answer reports; past it, one more problem says how many were left out. A page
 * of 30,000 bad keys gave 90,001 problems and 17 s of validation before these bounds.
 */
export const MAX_DRIFT_PROBLEMS = 100;

/**
 * The most items of a list the validators walk: one more than the contract allows any list (its largest
 * `maxItems`), so a list too long still breaks its `maxItems` rule but costs no more than that.
 */
export const MAX_ITEMS_CHECKED = ARRAY_ITEMS_MAX + 1;

function problemsOf(
  ruleOf: RuleWords,
  validate: GeneratedValidator,
  fast: GeneratedValidator | null | undefined,
  data: unknown,
  part: DriftPart,
): DriftProblem[] {
  if (fast ? fast(data) : validate(data)) return [];
  if (fast && validate(data)) return [];
  const seen = new Map<string, DriftProblem>();
  for (const error of collapseAnyOf(validate.errors ?? [])) {
    const pointer = pointerOf(error);
    const rule = ruleOf(error);
    seen.set(`${pointer}\n${rule}`, { part, pointer, rule });
  }
  const problems = [...seen.values()];
  if (problems.length <= MAX_DRIFT_PROBLEMS) return problems;
  const left = problems.length - MAX_DRIFT_PROBLEMS;
  return [
    ...problems.slice(0, MAX_DRIFT_PROBLEMS),
    {
      part,
      pointer: '',
      rule: `and ${left} more problem(s), not listed (at most MAX_DRIFT_PROBLEMS, ${MAX_DRIFT_PROBLEMS}, are)`,
    },
  ];
}

function pointerOf(error: GeneratedValidatorError): string {
  const { missingProperty } = error.params;
  return typeof missingProperty === 'string'
    ? `${error.instancePath}/${escapePointer(missingProperty)}`
    : error.instancePath;
}

export interface CheckOptions {
  /**
   * Check only the first N items of each list at the top of the body (a key page's `data`); every
   * other member is still checked in full. Full checking of a 200-key page costs about as much as
   * parsing it; a provider's drift is systematic (every record changes), so a sample finds it at a
   * fraction of the cost. Pointers stay those of the full body. Default: every item.
   */
  sampleItems?: number;
  /** Skip the fast path and run the full validator on everything (for the benchmark's side-by-side figure and tests). */
  fullCheckOnly?: boolean;
}

/**
 * The body with each top-level list cut to its first `n` items, and never more than MAX_ITEMS_CHECKED
 * (a shallow copy; the caller's body is untouched). The contract's lists are all top-level members.
 */
function sampled(body: unknown, sample: number | undefined): unknown {
  const n = Math.min(sample ?? MAX_ITEMS_CHECKED, MAX_ITEMS_CHECKED);
  if (body === null || typeof body !== 'object') return body;
  if (Array.isArray(body)) return body.length > n ? body.slice(0, n) : body;
  let copy: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.length > n) {
      copy ??= { ...(body as Record<string, unknown>) };
      copy[name] = value.slice(0, n);
    }
  }
  return copy ?? body;
}

/**
 * Every way `response` departs from what the contract documents for its operation and status;
 * `[]` when it conforms. Unknown members and unknown values of the open enum-like fields
 * (key_type, key_status, account_type) are allowed by the contract itself, so they never show up.
 */
export function checkResponse(
  contract: ResponseContract,
  ruleOf: RuleWords,
  response: ObservedResponse,
  options: CheckOptions = {},
): DriftProblem[] {
  if (!contract[response.operationId]) throw new Error(`no operation ${response.operationId} in the contract`);
  const documented = documentedResponse(contract, response.operationId, response.status);
  if (!documented) {
    return [
      {
        part: 'status',
        pointer: '',
        rule: `must be one of the documented statuses ${Object.keys(contract[response.operationId]!).join(', ')}`,
      },
    ];
  }
  const problems = problemsOf(
    ruleOf,
    documented.headers,
    documented.fastHeaders,
    headerObject(response.headers, documented.headerTypes),
    'header',
  );
  const documentedTypes = Object.keys(documented.contentTypes);
  if (documentedTypes.length === 0) return problems;
  const type = mediaTypeOf(response.contentType);
  if (type === null || !documentedTypes.includes(type)) {
    // A body of an undocumented type is not validated: its shape means nothing to the contract.
    problems.push({ part: 'content-type', pointer: '', rule: `must be ${documentedTypes.join(' or ')}` });
    return problems;
  }
  if (response.bodyUnparsable) {
    problems.push({
      part: 'body',
      pointer: '',
      rule: isJsonMediaType(type) ? 'must be valid JSON' : `must be valid ${type}`,
    });
    return problems;
  }
  const validate = documented.contentTypes[type];
  if (validate)
    problems.push(
      ...problemsOf(
        ruleOf,
        validate,
        options.fullCheckOnly ? null : documented.fastContentTypes[type],
        sampled(response.body, options.sampleItems),
        'body',
      ),
    );
  // The check digits of the documents a page of key records names (a CPF, a CNPJ), which no schema can say.
  if (response.status >= 200 && response.status < 300)
    // Over the same bounded sample as the validators: a 30,000-key page costs no more than 201 keys.
    problems.push(...documentProblems(sampled(response.body, options.sampleItems)));
  return problems;
}
