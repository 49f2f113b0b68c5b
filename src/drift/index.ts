// Response drift checks. Safe to import anywhere: the generated response validators (~70 kB) load
// only when `loadDriftChecker()` is first called, by dynamic import.
import { ruleOf } from '../validation/rules.js';
import { checkResponse, type CheckOptions } from './check.js';
import type { DriftProblem } from '../call-events.js';
import type { ObservedResponse } from './problems.js';

export type { CheckOptions } from './check.js';

export type { ObservedResponse } from './problems.js';
export type { DriftEvent, DriftPart, DriftProblem } from '../call-events.js';
export { describeProblem, driftMessage } from './problems.js';

export interface DriftChecker {
  /** Every departure of one response from the contract; `[]` when it conforms. Never holds values. */
  check(response: ObservedResponse, options?: CheckOptions): DriftProblem[];
  /** The operationIds the contract documents. */
  readonly operations: readonly string[];
}

let loading: Promise<DriftChecker> | undefined;

/** Loads the generated validators once and returns the checker (the same one on every call). */
export function loadDriftChecker(): Promise<DriftChecker> {
  loading ??= import('../generated/response-validators.js').then((generated) => ({
    check: (response: ObservedResponse, options?: CheckOptions) =>
      checkResponse(generated.responseContract, ruleOf, response, options),
    operations: Object.keys(generated.responseContract),
  }));
  return loading;
}
