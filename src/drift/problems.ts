// What a drift check reports: where the response left the contract and which rule it broke, never
// the value (a body may hold CPFs, names, account numbers). The types of what it reports (`DriftProblem`,
// `DriftEvent`) are what a call reports to its observers: src/call-events.ts, a leaf.
import type { DriftEvent, DriftProblem } from '../call-events.js';

/** One response as the caller saw it. */
export interface ObservedResponse {
  /** operationId in the spec: `listPixKeys`, `updateNaturalPerson`. */
  operationId: string;
  status: number;
  /** Response headers (a Fetch `Headers`, or a plain object with any case of names). */
  headers: Headers | Readonly<Record<string, string | undefined>>;
  /** The Content-Type header as received (parameters such as charset are ignored), or null when absent. */
  contentType: string | null;
  /** The parsed body (JSON), or undefined when there is none. */
  body?: unknown;
  /** True when the body was not parseable as the content type says (e.g. JSON that is not JSON). */
  bodyUnparsable?: boolean;
}

/** `/data/0/key must match the pattern …`, for logs and error messages. */
export function describeProblem(problem: DriftProblem): string {
  const where =
    problem.part === 'body'
      ? `body${problem.pointer}`
      : problem.part === 'header'
        ? `header ${problem.pointer.slice(1)}`
        : problem.part;
  return `${where} ${problem.rule}`;
}

/** One line for a log or an error message: `listPixKeys 200 drifted from the contract: body/data/0/key must …; …`. */
export function driftMessage(event: Pick<DriftEvent, 'operationId' | 'status' | 'problems'>): string {
  return `${event.operationId} ${event.status} drifted from the contract: ${describeProblems(event.problems)}`;
}

/** The first five problems in words, and how many more. */
export function describeProblems(problems: readonly DriftProblem[]): string {
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  return `${problems.slice(0, 5).map(describeProblem).join('; ')}${more}`;
}
