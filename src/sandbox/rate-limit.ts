// The rate limit per API client, as a token bucket: a client may send `requests` at once, and then
// `requests` per `windowMs` for good, so a client that paces itself at the limit is never refused,
// however its requests fall against any window's edges. The one place that builds the 429 and the
// IETF `RateLimit` and `RateLimit-Policy` header fields (draft-ietf-httpapi-ratelimit-headers) the
// contract documents on 2xx and 4xx answers, which the client reads (src/logging/rate-limit.ts).
import { problem } from './problems.js';
import { n, plural } from '../words.js';
import { type OptionRules, within } from '../option-rules.js';

/** The sandbox's rate limit per client: how many requests per window, and what a refusal says. */
export interface RateLimitOptions {
  /**
   * Requests allowed per window and client (its static token and the tokens issued to it share them):
   * a positive integer. A client may send this many at once, and this many per window for good.
   */
  requests: number;
  /** Length of the window in ms: a positive number, default 1000. */
  windowMs?: number;
}

/** The name of the one policy in `RateLimit` and `RateLimit-Policy`. */
export const RATE_LIMIT_POLICY = 'default';
/** The longest window: a day, so that a `Retry-After` stays within the contract's maximum. */
const MAX_WINDOW_MS = 86_400_000;
// Refills are fractions of a request: a request at the exact pace may find 0.9999999999 of one.
const EPSILON = 1e-9;

/** Each rate-limit option's rule, once: tsc fails here when RateLimitOptions gains or loses one. */
export const RATE_LIMIT_RULES: OptionRules<RateLimitOptions> = {
  requests: {
    check: (requests) =>
      Number.isInteger(requests) && (requests as number) >= 1 ? undefined : 'must be a positive integer',
    error: RangeError,
    required: true,
  },
  windowMs: within(
    (ms) => typeof ms === 'number' && ms > 0 && ms <= MAX_WINDOW_MS,
    'must be at most 86,400,000 (a day) and positive',
  ),
};

interface Bucket {
  /** Requests the client may send now (fractional while it refills). */
  level: number;
  /** When `level` was worked out, in ms (performance.now). */
  at: number;
}

export type RateVerdict = { headers: Record<string, string> } | { refused: Response };

export class RateLimiter {
  private readonly buckets = new Map<number, Bucket>();
  private readonly windowMs: number;
  private readonly perMs: number;
  private readonly policy: string;

  /** `options` kept RATE_LIMIT_RULES (createSandbox checks them first). */
  constructor(private readonly options: RateLimitOptions) {
    this.windowMs = options.windowMs ?? 1000;
    this.perMs = options.requests / this.windowMs;
    // The fields count whole seconds: a window of part of a second is stated as one (a lower rate, never a higher).
    this.policy = `"${RATE_LIMIT_POLICY}";q=${options.requests};w=${Math.ceil(this.windowMs / 1000)}`;
  }

  /** Counts a request of client `clientIndex`: the headers of its answer, or the 429 to send. */
  check(clientIndex: number, requestId: string): RateVerdict {
    const now = performance.now();
    const { requests } = this.options;
    const bucket = this.buckets.get(clientIndex) ?? { level: requests, at: now };
    bucket.level = Math.min(requests, bucket.level + Math.max(0, now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(clientIndex, bucket);
    if (bucket.level + EPSILON >= 1) {
      bucket.level = Math.max(0, bucket.level - 1);
      return { headers: this.fields(bucket.level) };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.level) / this.perMs / 1000 - EPSILON));
    return { refused: rateLimited(retryAfterSeconds, requests, this.windowMs, requestId, this.fields(bucket.level)) };
  }

  /** `RateLimit` (requests left now, seconds until the bucket is full again) and `RateLimit-Policy`. */
  private fields(level: number): Record<string, string> {
    const remaining = Math.floor(level + EPSILON);
    const untilFull = Math.max(0, Math.ceil((this.options.requests - level) / this.perMs / 1000 - EPSILON));
    return {
      ratelimit: `"${RATE_LIMIT_POLICY}";r=${remaining};t=${untilFull}`,
      'ratelimit-policy': this.policy,
    };
  }

  reset(): void {
    this.buckets.clear();
  }
}

function rateLimited(
  retryAfterSeconds: number,
  requests: number,
  windowMs: number,
  requestId: string,
  fields: Record<string, string>,
): Response {
  return problem(
    {
      status: 429,
      slug: 'rate-limited',
      title: 'Too many requests',
      detail: `The rate limit of this client (${plural(requests, 'request')} per ${n(windowMs)} ms) was reached. Retry after ${plural(retryAfterSeconds, 'second')}.`,
      headers: { ...fields, 'retry-after': String(retryAfterSeconds) },
    },
    requestId,
  );
}
