// Response drift checks. This file is small and safe to import anywhere: the generated response
// validators (~70 kB) load only when `loadDriftChecker()` is first called, by dynamic import.
import type { CheckOptions } from './check.js';
import type { DriftProblem, ObservedResponse } from './problems.js';

export type { CheckOptions } from './check.js';

export type { DriftPart, DriftProblem, ObservedResponse } from './problems.js';
import { describeProblem } from './problems.js';

export { describeProblem };

export interface DriftChecker {
  /** Every departure of one response from the contract; `[]` when it conforms. Never holds values. */
  check(response: ObservedResponse, options?: CheckOptions): DriftProblem[];
  /** The operationIds the contract documents. */
  readonly operations: readonly string[];
}

let loading: Promise<DriftChecker> | undefined;

/** Loads the generated validators once and returns the checker (the same one on every call). */
export function loadDriftChecker(): Promise<DriftChecker> {
  loading ??= Promise.all([import('../generated/response-validators.js'), import('./check.js')]).then(([generated, { checkResponse }]) => ({
    check: (response: ObservedResponse, options?: CheckOptions) => checkResponse(generated.responseContract, response, options),
    operations: Object.keys(generated.responseContract),
  }));
  return loading;
}

/**
 * What the client emits with `validateResponses: 'warn'` (to its logs and events), and what a
 * `ResponseError` carries with `'throw'`. Problems never hold values.
 */
export interface DriftEvent {
  type: 'drift';
  operationId: string;
  status: number;
  problems: DriftProblem[];
}

/** One line for a log or an error message: `listPixKeys 200 drifted from the contract: body/data/0/key must …; …`. */
export function driftMessage(event: Omit<DriftEvent, 'type'>): string {
  const shown = event.problems.slice(0, 5).map(describeProblem).join('; ');
  const more = event.problems.length > 5 ? ` (and ${event.problems.length - 5} more)` : '';
  return `${event.operationId} ${event.status} drifted from the contract: ${shown}${more}`;
}
