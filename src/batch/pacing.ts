// What every request of a batch waits for before it is sent: the `rate` ceiling, the limit the
// provider's rate-limit header fields state (once seen), then the caller's `limiter`.
//
// Written here rather than taken from p-queue or p-throttle: bundled into both builds, p-queue
// (with eventemitter3 and p-timeout) measured 60 kB of the tarball's 900 kB budget; p-throttle
// aborts a whole throttle, not one waiting request. Even spacing is a few lines.
import { sleep } from '../client/retry.js';
import type { RateLimitInfo } from '../logging/rate-limit.js';
import type { RequestLimiter } from './limiter.js';
import type { PacingSettings } from './options.js';

/**
 * A local limiter spacing requests evenly, `1000 / rate` ms apart: never more than `rate` requests
 * in any second (one more at most, when a timer fired late), and no burst at a window's edge.
 */
export function spacedLimiter(rate: number): RequestLimiter {
  const gapMs = 1000 / rate;
  let nextAt = Number.NEGATIVE_INFINITY;
  return {
    async take(signal) {
      signal?.throwIfAborted();
      const now = Date.now();
      const at = Math.max(now, nextAt);
      nextAt = at + gapMs;
      if (at > now) await sleep(at - now, signal);
    },
  };
}

/** The requests per second a rate-limit policy states (quota over window), when it states both. */
export function limitPerSecond(info: RateLimitInfo | undefined): number | undefined {
  if (info?.limit === undefined || info.windowSeconds === undefined) return undefined;
  if (!(info.limit > 0 && info.windowSeconds > 0)) return undefined;
  return info.limit / info.windowSeconds;
}

export class Pacing {
  /** The provider's limit in requests per second, once its header fields stated it. */
  discoveredLimit: number | undefined;
  private readonly ceiling: RequestLimiter | undefined;
  private discovered: RequestLimiter | undefined;

  constructor(private readonly settings: Pick<PacingSettings, 'rate' | 'limiter'>) {
    this.ceiling = settings.rate === undefined ? undefined : spacedLimiter(settings.rate);
  }

  /** Resolves when one more request may go; rejects with the signal's reason when it aborts first. */
  async take(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.ceiling?.take(signal);
    await this.discovered?.take(signal);
    // The caller's limiter last, right before the request, so a shared token is not held while waiting.
    await this.settings.limiter?.take(signal);
    signal.throwIfAborted();
  }

  /** Reads a policy off an answer's rate-limit fields: a new limit, when below `rate`, paces what follows. */
  learn(info: RateLimitInfo | undefined): void {
    const limit = limitPerSecond(info);
    if (limit === undefined || limit === this.discoveredLimit) return;
    this.discoveredLimit = limit;
    const { rate } = this.settings;
    this.discovered = rate !== undefined && rate <= limit ? undefined : spacedLimiter(limit);
  }
}
