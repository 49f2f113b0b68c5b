// Requests per window per token. The one place that builds the 429: when the contract gains
// rate-limit header fields (RateLimit / RateLimit-Policy), they are added in `rateLimited` below.
import { problem } from './problems.js';

export interface RateLimitOptions {
  /** Requests allowed per window and token. */
  requests: number;
  /** Length of the window in ms. Default 1000. */
  windowMs?: number;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly windowMs: number;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    if (!Number.isInteger(options.requests) || options.requests < 1)
      throw new RangeError('createSandbox: rateLimit.requests must be a positive integer');
    this.windowMs = options.windowMs ?? 1000;
    if (!(this.windowMs > 0)) throw new RangeError('createSandbox: rateLimit.windowMs must be positive');
  }

  /** Counts a request of `token`; the 429 to send when it is over the limit, else undefined. */
  check(token: string, requestId: string): Response | undefined {
    const now = this.now();
    let window = this.windows.get(token);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(token, window);
    }
    window.count += 1;
    if (window.count <= this.options.requests) return undefined;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    return rateLimited(retryAfterSeconds, this.options.requests, this.windowMs, requestId);
  }

  reset(): void {
    this.windows.clear();
  }
}

export function rateLimited(
  retryAfterSeconds: number,
  requests: number,
  windowMs: number,
  requestId: string,
): Response {
  return problem(
    {
      status: 429,
      slug: 'rate-limited',
      title: 'Too many requests',
      detail: `The rate limit of this client (${requests} requests per ${windowMs} ms) was reached. Retry after ${retryAfterSeconds} seconds.`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
    requestId,
  );
}
