// Pre-flight validators: the spec's own schemas (compiled at build time into src/generated/validators.js)
// plus the one rule JSON Schema cannot express, the CPF check digits.
import { listPixKeysQuery, naturalPersonUpdate, updateNaturalPersonQuery } from '../generated/validators.js';
import { isValidCpf } from './cpf.js';
import { runValidator, type ValidationIssue } from './issues.js';

export { isValidCpf, type ValidationIssue };

/** Checks an update body; `[]` when it is valid. */
export function validateNaturalPersonUpdate(body: unknown): ValidationIssue[] {
  return runValidator(naturalPersonUpdate, body, 'body');
}

/** Checks `{ Account, DocumentNumber }`, including the CPF check digits; `[]` when valid. */
export function validateUpdateNaturalPersonQuery(query: unknown): ValidationIssue[] {
  const issues = runValidator(updateNaturalPersonQuery, query, 'query');
  const documentNumber = (query as { DocumentNumber?: unknown } | null)?.DocumentNumber;
  const shapeIsFine = !issues.some((issue) => issue.path === 'DocumentNumber');
  if (shapeIsFine && typeof documentNumber === 'string' && !isValidCpf(documentNumber)) {
    issues.push({ path: 'DocumentNumber', message: 'DocumentNumber is not a valid CPF: its check digits do not match' });
  }
  return issues;
}

/** Checks `{ limit?, cursor? }`; `[]` when valid. */
export function validateListPixKeysQuery(query: unknown): ValidationIssue[] {
  return runValidator(listPixKeysQuery, query, 'query');
}
