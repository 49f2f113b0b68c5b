// A request's broken rules as the contract's violations: the validators' issues, and query
// parameters of one value sent more than once.
import type { Violation } from '../types.js';
import { issueAt, type ValidationIssue } from '../validation/index.js';
import type { OperationName } from '../generated/operations.js';
import { SINGLE_VALUED_QUERY } from './spec.js';

export const violationsOf = (issues: ValidationIssue[]): Violation[] =>
  // The whole body has no JSON pointer of its own in a violation's `property` (at least one character).
  issues.map((issue) => ({ property: issue.path === '' ? 'body' : issue.path, reason: issue.message }));

/** A query parameter of one value sent more than once: which of them is meant is anyone's guess. */
export const repeated = (url: URL, operation: OperationName): ValidationIssue[] =>
  SINGLE_VALUED_QUERY[operation]
    .filter((name) => url.searchParams.getAll(name).length > 1)
    .map((name) => issueAt(name, 'must be sent once: it takes one value'));
