// A RequestLimiter that several processes share: rate-limiter-flexible keeps the count in Redis,
// so every worker of one API client draws from the same points.
import type { RequestLimiter } from 'baas-pix-contract';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

// Node fires a longer timer at once (after a warning): never arm one beyond this.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * `take()` consumes one point of `key` (one key per API client: the provider counts per client).
 * Refused, it waits the `msBeforeNext` rate-limiter-flexible gives and tries again. The signal ends
 * the wait with the signal's reason. A store error (Redis down) rejects: that is no reason to wait.
 */
export function sharedLimiter(limiter: Pick<RateLimiterAbstract, 'consume'>, key: string): RequestLimiter {
  return {
    async take(signal) {
      for (;;) {
        signal?.throwIfAborted();
        const refused = await limiter.consume(key, 1).then(
          () => undefined,
          (error: unknown) => {
            if (error instanceof RateLimiterRes) return error;
            throw error;
          },
        );
        // Aborted while Redis answered: the point is spent, but the caller no longer wants it.
        signal?.throwIfAborted();
        if (refused === undefined) return;
        await wait(Math.max(refused.msBeforeNext, 1), signal);
      }
    },
  };
}

/** Resolves after `ms` (at most LONGEST_TIMER_MS), or rejects with the signal's reason; leaves no timer or listener. */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.min(ms, LONGEST_TIMER_MS));
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
