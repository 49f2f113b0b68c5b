// Pre-flight validators: the spec's own schemas (compiled at build time into src/generated/validators.js)
// plus the one rule JSON Schema cannot express, the CPF check digits.
import { listPixKeysQuery, updateNaturalPersonBody, updateNaturalPersonQuery } from '../generated/validators.js';
import { cpfProblem, isValidCpf, isWrittenCpf } from './cpf.js';
import { runValidator, type ValidationIssue } from './issues.js';
import { DIGITS_ONLY_RULE } from './rules.js';

export { isValidCpf, type ValidationIssue };

const CPF_MESSAGES = {
  'repeated-digit': 'DocumentNumber is not a CPF: one digit repeated 11 times is never one',
  'check-digits': 'DocumentNumber is not a CPF: its check digits do not match',
} as const;

/** Checks an update body; `[]` when it is valid. */
export function validateNaturalPersonUpdate(body: unknown): ValidationIssue[] {
  return runValidator(updateNaturalPersonBody, body, 'body');
}

/** Checks `{ Account, DocumentNumber }`, including the CPF check digits; `[]` when valid. */
export function validateUpdateNaturalPersonQuery(query: unknown): ValidationIssue[] {
  const issues = runValidator(updateNaturalPersonQuery, query, 'query');
  const documentNumber = (query as { DocumentNumber?: unknown } | null)?.DocumentNumber;
  // `529.982.247-25`: one issue that says what to do, rather than the schema's length and pattern.
  if (isWrittenCpf(documentNumber))
    return [
      ...issues.filter((issue) => issue.path !== 'DocumentNumber'),
      { path: 'DocumentNumber', message: `DocumentNumber ${DIGITS_ONLY_RULE}` },
    ];
  // Only a string of 11 digits has check digits to verify; any other value already has its issue
  // from the schema (cpfProblem calls it not-11-digits, which adds nothing here).
  const problem = typeof documentNumber === 'string' ? cpfProblem(documentNumber) : undefined;
  if (problem === 'repeated-digit' || problem === 'check-digits')
    issues.push({ path: 'DocumentNumber', message: CPF_MESSAGES[problem] });
  return issues;
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
  return {
    query,
    body,
    issues: [...validateUpdateNaturalPersonQuery(query), ...validateNaturalPersonUpdate(body)],
  };
}

/** Checks `{ limit?, cursor? }`; `[]` when valid. */
export function validateListPixKeysQuery(query: unknown): ValidationIssue[] {
  return runValidator(listPixKeysQuery, query, 'query');
}
