// One request of a batch, sent by the client once: the client's one retry loop (src/transport/pipeline.ts)
// runs the batch's policy around each of its attempts, retries included. Before an attempt goes, the
// policy paces it (rate, discovered limit, limiter) with the loop's own wait; after it, the batch hears
// what it came to (adaptive concurrency, counts, a stated rate limit). The retry decision is the
// client's (`shouldRetry`, over the batch's `retry` settings), so retries, their waits and their
// numbers are those of any call: no loop here.
import type { CallOptions } from '../client/options.js';
import type { RetrySettings } from '../client/retry.js';
import { BaasError } from '../errors.js';
import { parseRateLimit, type RateLimitInfo } from '../logging/rate-limit.js';
import type { AttemptPolicy, Tried } from '../transport/pipeline.js';
import type { Pacing } from './pacing.js';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: BaasError };

export interface BatchRequest {
  pacing: Pacing;
  retry: RetrySettings | false;
  /** Aborted to stop: no attempt starts after it, a wait for a retry ends, and the last answer stands. */
  stop: AbortSignal;
  /** Given to the client's call: aborts a request on the wire. */
  callSignal?: AbortSignal | undefined;
  /** Before each attempt goes; returns the attempt's number for `answered`. */
  sending(): number;
  /**
   * After each attempt: what it came to. Throwing (a rate-limit policy past the package's ceiling)
   * stops the retries, and the request ends with that error.
   */
  answered(number: number, tried: Tried): void;
}

/** What a 429's rate-limit header fields state (only 429s are read: see pacing.ts). */
export const statedRateLimit = (tried: Tried): RateLimitInfo | undefined =>
  tried.response?.status === 429 ? parseRateLimit(tried.response.headers) : undefined;

/**
 * The outcome of the request `send` makes, after its retries; `undefined` when it ends unsent or
 * aborted on the wire. An error that is not the package's (a limiter's failure), or one `answered`
 * threw, is thrown.
 */
export async function sendPaced<T>(
  send: (options: CallOptions) => Promise<T>,
  request: BatchRequest,
): Promise<Outcome<T> | undefined> {
  const halt = new AbortController();
  let refused: { error: unknown } | undefined;
  let number = 0;
  const { pacing } = request;
  const policy: AttemptPolicy = {
    stop: AbortSignal.any([request.stop, halt.signal]),
    async before(_attempt, { wait }) {
      if (pacing.idle) request.stop.throwIfAborted();
      else await pacing.take(request.stop, wait);
      number = request.sending();
    },
    after(tried) {
      try {
        request.answered(number, tried);
      } catch (error) {
        refused ??= { error };
        halt.abort(error);
      }
    },
  };
  try {
    const value = await send({ retry: request.retry, signal: request.callSignal, policies: [policy] });
    if (refused) throw refused.error;
    return { ok: true, value };
  } catch (error) {
    if (refused) throw refused.error;
    if (error instanceof BaasError) return { ok: false, error };
    if (request.callSignal?.aborted || request.stop.aborted) return undefined;
    throw error;
  }
}
