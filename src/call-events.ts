// What a call reports to whoever observes it (the client's logging, `client.on`, response checking):
// the seam between the client, which fills it in, and src/logging/, which turns it into events. A
// leaf of types, so neither side imports the other's internals.
import type { CallOperation } from './errors.js';
import type { Secrets } from './redact.js';

/** What a log line or an event may show of a call: nothing secret (the URL is redacted). */
export interface CallEvent {
  operation: CallOperation;
  method: string;
  url: string;
  attempt: number;
  status?: number | undefined;
  durationMs: number;
  requestId?: string | undefined;
  waitMs?: number | undefined;
  reason?: string | undefined;
  error?: unknown;
  /** The attempt's request headers, without Authorization (attempt events). */
  headers?: Record<string, string> | undefined;
  /** The response's headers (response events), for the request id and rate-limit fields. */
  responseHeaders?: Headers | undefined;
}

/** Each hook also gets the numbers the call carries (its DocumentNumber), to mask them in what it shows. */
export interface CallObserver {
  attempt?(event: CallEvent, carried?: readonly string[]): void;
  response?(event: CallEvent, carried?: readonly string[]): void;
  retry?(event: CallEvent, carried?: readonly string[]): void;
  error?(event: CallEvent, carried?: readonly string[]): void;
  /** The call ended with what its reader made of the final answer (its duration runs from the call's start). */
  done?(event: CallEvent, carried?: readonly string[]): void;
  /** An answer departed from the contract (`validateResponses: 'warn'`); no values, only pointers and rules. */
  drift?(event: DriftEvent): void;
}

/** What an observer is attached to: one client's calls, the secrets they mask, and their token source. */
export interface Observed {
  observer?: CallObserver | undefined;
  /** The client's one holder of its tokens and secrets, through which every event is built. */
  readonly secrets: Secrets;
  /** The client's token source: a string, or a function that may tell of its tokens (`observe`). */
  readonly token: unknown;
}

/**
 * A call begins, before its token and its first attempt. `headers` is the call's own request
 * headers object: a tracer adds its propagation fields (`traceparent`) there, sent with every attempt.
 */
export interface CallStart {
  operation: CallOperation;
  method: string;
  /** Redacted, as in every CallEvent. */
  url: string;
  headers: Record<string, string>;
  /** Every secret the call knows (read at each use: tokens come and go), through which what is shown is built. */
  secrets: Secrets;
}

/**
 * Observes one call from its start (tracing): the observer of that call's events alone, or undefined
 * when nothing does. A promise only while what it needs is still loading (the first calls).
 */
export type CallTracing = (start: CallStart) => CallObserver | undefined | Promise<CallObserver | undefined>;

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
