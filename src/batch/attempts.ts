// One request of a batch to its end: each attempt paced, then sent by the client with its own
// retries off, so that a retry is paced like any request; the retry decision is the client's own
// (shouldRetry), including the wait a server's Retry-After asks for.
import { type InternalCallOptions, PRIOR_ATTEMPTS } from '../client/options.js';
import { shouldRetry, sleep, type RetrySettings } from '../client/retry.js';
import { BaasApiError, BaasError, BaasNetworkError, BaasTimeoutError } from '../errors.js';
import type { Pacing } from './pacing.js';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: BaasError };

export interface Attempts {
  pacing: Pacing;
  retry: RetrySettings | false;
  /** The operation's HTTP method, for the retry decision. */
  method: string;
  /** Aborted to stop: no attempt starts after it, and a wait for a retry ends. */
  stop: AbortSignal;
  /** Given to the client's call: aborts a request on the wire. */
  callSignal?: AbortSignal | undefined;
  /** Before each attempt is sent; returns the attempt's number for `answered`. */
  sending(): number;
  /** After each attempt: its error, or undefined for a success. */
  answered(attempt: number, error: BaasError | undefined): void;
}

/**
 * The outcome of the request `send` makes, after its retries; `undefined` when it ends unsent or
 * aborted on the wire. An error that is not the package's (a limiter's failure) is thrown.
 */
export async function attemptUntilDone<T>(
  send: (options: InternalCallOptions) => Promise<T>,
  attempts: Attempts,
): Promise<Outcome<T> | undefined> {
  const started = Date.now();
  let last: BaasError | undefined;
  const ended = () => (last === undefined ? undefined : ({ ok: false, error: last } as const));
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (attempts.pacing.idle) attempts.stop.throwIfAborted();
      else await attempts.pacing.take(attempts.stop);
    } catch (error) {
      if (attempts.stop.aborted) return ended();
      throw error;
    }
    const number = attempts.sending();
    let error: unknown;
    try {
      // The client counts on from the attempts already made: its events and its error say which attempt it was.
      const value = await send({ retry: false, signal: attempts.callSignal, [PRIOR_ATTEMPTS]: attempt - 1 });
      attempts.answered(number, undefined);
      return { ok: true, value };
    } catch (thrown) {
      error = thrown;
    }
    if (!(error instanceof BaasError)) {
      if (attempts.callSignal?.aborted) return undefined;
      throw error;
    }
    attempts.answered(number, error);
    last = error;
    const status = error instanceof BaasApiError ? error.status : undefined;
    const failure =
      error instanceof BaasTimeoutError ? 'timeout' : error instanceof BaasNetworkError ? 'network' : undefined;
    // Validation, authentication and unreadable answers are the item's own: never retried.
    if (status === undefined && failure === undefined) return ended();
    const wait = shouldRetry(
      {
        attempt,
        method: attempts.method,
        status,
        failure,
        retryAfterMs: error instanceof BaasApiError ? error.retryAfterMs : undefined,
        elapsedMs: Date.now() - started,
      },
      attempts.retry,
    );
    if (wait === undefined || attempts.stop.aborted) return ended();
    try {
      await sleep(wait, attempts.stop);
    } catch {
      return ended();
    }
  }
}
