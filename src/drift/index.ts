// Response drift checks. This file is small and safe to import anywhere: the generated response
// validators (~70 kB) load only when `loadDriftChecker()` is first called, by dynamic import.
import type { CheckOptions } from './check.js';
import type { DriftProblem, ObservedResponse } from './problems.js';

export type { CheckOptions } from './check.js';

export type { DriftEvent, DriftPart, DriftProblem, ObservedResponse } from './problems.js';
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
  loading ??= Promise.all([import('../generated/response-validators.js'), import('./check.js'), import('../validation/rules.js')]).then(([generated, { checkResponse }, { ruleOf }]) => ({
    check: (response: ObservedResponse, options?: CheckOptions) => checkResponse(generated.responseContract, ruleOf, response, options),
    operations: Object.keys(generated.responseContract),
  }));
  return loading;
}

