// The seam between batch work and whatever paces it: a local token bucket, or a limit shared by
// several processes (rate-limiter-flexible on Redis, see docs/guides/batch.md).

/**
 * Lets requests go at the pace of a limit. `take()` resolves when one more request may be sent, and
 * rejects with the signal's reason when the signal aborts first. A limiter shared by several
 * workers of one API client keeps all of them, together, under the provider's per-client limit.
 */
export interface RequestLimiter {
  /** Resolves when one more request may be sent; rejects with `signal`'s reason when it aborts first. */
  take(signal?: AbortSignal): Promise<void>;
}
