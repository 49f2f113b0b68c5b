// What every request of a batch waits for before it is sent: the `rate` ceiling, the limit the
// provider's rate-limit header fields state (read off the first 429 that states one), then the
// caller's `limiter`. Only 429s are read: listening to every answer (`client.on('response')`) makes
// the client build a redacted event per attempt, which measured twice the cost of an update.
//
// Written here rather than taken from p-queue or p-throttle: bundled into both builds, p-queue
// (with eventemitter3 and p-timeout) measured 60 kB of the tarball's 900 kB budget; p-throttle
// aborts a whole throttle, not one waiting request. Even spacing is a few lines.
import { BaasResponseError } from '../errors.js';
import type { RateLimitInfo } from '../logging/rate-limit.js';
import type { Sleep as Wait } from '../transport/pipeline.js';
import type { PacingSettings } from './options.js';
import { Secrets } from '../redact.js';

/** A limiter that waits with the retry loop's own wait (src/transport/pipeline.ts), given at each take. */
interface SpacedLimiter {
  take(signal: AbortSignal, wait: Wait): Promise<void>;
}

/**
 * A local limiter spacing requests at least `1000 / rate` ms apart, counted from when the previous one
 * actually went (a timer that fires late delays the rest, never bunches them): no window of a second,
 * fixed or sliding, ever holds more than `rate` requests. Takers go one at a time, in order.
 */
export function spacedLimiter(rate: number): SpacedLimiter {
  const gapMs = 1000 / rate;
  let lastAt = Number.NEGATIVE_INFINITY;
  let tail: Promise<void> = Promise.resolve();
  return {
    async take(signal, wait) {
      signal.throwIfAborted();
      const previous = tail;
      let done = (): void => undefined;
      tail = new Promise<void>((resolve) => {
        done = resolve;
      });
      try {
        await previous;
        signal.throwIfAborted();
        const left = lastAt + gapMs - Date.now();
        if (left > 0) await wait(left, signal);
        lastAt = Date.now();
      } finally {
        done();
      }
    },
  };
}

/** The requests per second a rate-limit policy states (quota over window), when it states both. */
export function limitPerSecond(info: RateLimitInfo | undefined): number | undefined {
  if (info?.limit === undefined || info.windowSeconds === undefined) return undefined;
  if (!(info.limit > 0 && info.windowSeconds > 0)) return undefined;
  return info.limit / info.windowSeconds;
}

/**
 * The longest spacing a provider's stated policy may ask between two requests: 60 s, the same ceiling
 * as the longest `Retry-After` a call waits (`retry.maxRetryAfterMs`). A policy asking more (`q=1;w=1728000`,
 * one request in 20 days) would stall the batch, or overflow a timer; it is refused instead.
 */
export const MAX_PACING_GAP_MS = 60_000;

/** The BaasResponseError a policy past the ceiling ends the batch with: the rule, never a timer's error. */
function policyRefused(info: RateLimitInfo): BaasResponseError {
  const rule = `must allow at least one request per ${MAX_PACING_GAP_MS / 1000} s (the package's ceiling MAX_PACING_GAP_MS)`;
  return new BaasResponseError(
    `the provider's rate-limit policy allows ${info.limit} request(s) per ${info.windowSeconds} s, past the package's ceiling of one request per ${MAX_PACING_GAP_MS / 1000} s (MAX_PACING_GAP_MS); the batch stopped rather than wait. Ask the provider for its real limit; rerun later (a journal goes on where it stopped)`,
    {
      status: 429,
      problems: [{ part: 'header', pointer: '/ratelimit-policy', rule }],
    },
    // Our words and the policy's two numbers: no provider text, no value of a call.
    { secrets: Secrets.none },
  );
}

export class Pacing {
  /** The provider's limit in requests per second, once its header fields stated it. */
  discoveredLimit: number | undefined;
  private readonly ceiling: SpacedLimiter | undefined;
  private discovered: SpacedLimiter | undefined;

  constructor(private readonly settings: Pick<PacingSettings, 'rate' | 'limiter'>) {
    this.ceiling = settings.rate === undefined ? undefined : spacedLimiter(settings.rate);
  }

  /** Nothing paces the requests (no rate, no stated limit, no limiter): `take` need not be awaited. */
  get idle(): boolean {
    return this.ceiling === undefined && this.discovered === undefined && this.settings.limiter === undefined;
  }

  /**
   * Resolves when one more request may go; rejects with the signal's reason when it aborts first.
   * Waits with `wait`, the retry loop's own (the pacing is a policy of that loop).
   */
  async take(signal: AbortSignal, wait: Wait): Promise<void> {
    signal.throwIfAborted();
    await this.ceiling?.take(signal, wait);
    await this.discovered?.take(signal, wait);
    // The caller's limiter last, right before the request, so a shared token is not held while waiting.
    await this.settings.limiter?.take(signal);
    signal.throwIfAborted();
  }

  /**
   * Reads a policy off an answer's rate-limit fields: a new limit, when below `rate`, paces what follows.
   * A policy spacing requests more than MAX_PACING_GAP_MS apart is thrown as a BaasResponseError (only
   * `RateLimit-Policy` states a window, so only it can).
   */
  learn(info: RateLimitInfo | undefined): void {
    const limit = limitPerSecond(info);
    if (limit === undefined || limit === this.discoveredLimit) return;
    if (1000 / limit > MAX_PACING_GAP_MS) throw policyRefused(info!);
    this.discoveredLimit = limit;
    const { rate } = this.settings;
    this.discovered = rate !== undefined && rate <= limit ? undefined : spacedLimiter(limit);
  }
}
