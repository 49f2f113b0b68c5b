// What a drift check reports: where the response left the contract and which rule it broke, never
// the value (a body may hold CPFs, names, account numbers).

/** Which part of the response broke the contract. */
export type DriftPart = 'status' | 'content-type' | 'header' | 'body';

/** One place where an answer left the contract, and the rule it broke; never the value. */
export interface DriftProblem {
  /** Which part of the answer: its status, content type, a header or the body. */
  part: DriftPart;
  /** JSON pointer inside the part: `/data/0/key` in the body, `/retry-after` among headers, `` for the whole part. */
  pointer: string;
  /** The rule broken, in words (`must match the pattern ^[0-9]{11}$`). Never the value. */
  rule: string;
}

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

/**
 * What the client emits with `validateResponses: 'warn'` (to its observers and `onDrift`), and what
 * a `BaasResponseError` carries with `'throw'`. Problems never hold values.
 */
export interface DriftEvent {
  /** The event's kind, what `client.on('drift', …)` selects. */
  type: 'drift';
  /** The operation whose answer drifted (`listPixKeys`). */
  operationId: string;
  /** The HTTP status of the answer that drifted. */
  status: number;
  /** Where the answer left the contract, each with its rule. */
  problems: DriftProblem[];
  /** From the client: method, redacted URL and X-Request-Id of the answer that drifted. */
  method?: string | undefined;
  /** The request URL, masked. */
  url?: string | undefined;
  /** The answer's `X-Request-Id`, when it sent one. */
  requestId?: string | undefined;
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
