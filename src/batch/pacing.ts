// What every request of a batch waits for before it is sent: the `rate` ceiling, the limit the
// provider's rate-limit header fields state (once seen), then the caller's `limiter`. The spacing
// comes from p-queue's sliding-window interval cap, so no second is ever over the rate.
import PQueue from 'p-queue';
import type { RateLimitInfo } from '../logging/rate-limit.js';
import type { RequestLimiter } from './limiter.js';
import type { PacingSettings } from './options.js';

// Timers are too coarse to space single requests less than 10 ms apart: faster rates let a few go
// per interval instead, still never more than `rate` in any second.
const FINEST_INTERVAL_MS = 10;

/** A local limiter spacing requests evenly at `rate` per second. */
export function spacedLimiter(rate: number): RequestLimiter {
  const intervalCap = Math.max(1, Math.ceil((rate * FINEST_INTERVAL_MS) / 1000));
  const queue = new PQueue({ intervalCap, interval: (intervalCap * 1000) / rate, strict: true });
  return { take: (signal) => queue.add(() => undefined, signal ? { signal } : {}) };
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
