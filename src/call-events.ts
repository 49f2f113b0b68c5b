// What a call reports to whoever observes it (the client's logging, `client.on`, response checking):
// the seam between the client, which fills it in, and src/logging/, which turns it into events. A
// leaf of types, so neither side imports the other's internals.
import type { DriftEvent } from './drift/problems.js';
import type { OperationName } from './errors.js';

/** What a log line or an event may show of a call: nothing secret (the URL is redacted). */
export interface CallEvent {
  operation: OperationName;
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
  /** An answer departed from the contract (`validateResponses: 'warn'`); no values, only pointers and rules. */
  drift?(event: DriftEvent): void;
}

/** What an observer is attached to: one client's calls, the secrets they mask, and their token source. */
export interface Observed {
  observer?: CallObserver | undefined;
  /** Tokens and secrets the client knows, masked in every event. */
  readonly secrets: readonly string[];
  /** The client's token source: a string, or a function that may tell of its tokens (`observe`). */
  readonly token: unknown;
}
