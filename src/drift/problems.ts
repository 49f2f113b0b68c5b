// What a drift check reports: where the response left the contract and which rule it broke, never
// the value (a body may hold CPFs, names, account numbers).

/** Which part of the response broke the contract. */
export type DriftPart = 'status' | 'content-type' | 'header' | 'body';

export interface DriftProblem {
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
  const where = problem.part === 'body' ? `body${problem.pointer}` : problem.part === 'header' ? `header ${problem.pointer.slice(1)}` : problem.part;
  return `${where} ${problem.rule}`;
}
