// When and how long to wait before another attempt: one decision, `shouldRetry`, as Stainless'
// `shouldRetry` and stripe-node's `_shouldRetry` are. Change the retry policy here and only here.

export interface RetryOptions {
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** First backoff step. Default 250 ms; doubles each attempt, with full jitter. */
  baseDelayMs?: number;
  /** Largest backoff step. Default 5 000 ms. */
  maxDelayMs?: number;
  /** No attempt starts after this much time since the first. Default 30 000 ms. */
  maxElapsedMs?: number;
  /** Statuses worth another attempt. Default 429, 502, 503, 504. */
  statuses?: readonly number[];
}

export type RetrySettings = Required<RetryOptions>;

export const DEFAULT_RETRY: RetrySettings = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxElapsedMs: 30_000,
  statuses: Object.freeze([429, 502, 503, 504]),
});

export function retrySettings(option: RetryOptions | boolean | undefined): RetrySettings | false {
  if (option === false) return false;
  // Spreading `true` or `undefined` adds nothing: both mean the defaults.
  const settings = { ...DEFAULT_RETRY, ...(option as RetryOptions | undefined) };
  if (!Number.isInteger(settings.maxAttempts) || settings.maxAttempts < 1) {
    throw new TypeError('retry.maxAttempts must be a whole number of at least 1');
  }
  return settings;
}

/** Methods a server must treat as idempotent (RFC 9110 §9.2.2): safe to send again after a failure. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export interface RetryQuestion {
  /** The attempt that just ended, from 1. */
  attempt: number;
  method: string;
  /** The status of the answer, when there was one. */
  status?: number | undefined;
  /** What the attempt failed with, when it got no answer: a network failure or its timeout. */
  failure?: 'network' | 'timeout' | undefined;
  /** `Retry-After` of the answer, in ms, when it had one. */
  retryAfterMs?: number | undefined;
  /** Since the first attempt started. */
  elapsedMs: number;
  /** The call carries an `Idempotency-Key`, so a method that is not idempotent may be sent again. */
  idempotencyKey?: boolean;
}

/**
 * Whether to send the call again, and after how long: the wait in ms, or undefined for no retry.
 * Only idempotent methods (or calls with an idempotency key) are retried; only network failures,
 * timeouts and the retryable statuses; never past `maxAttempts` or `maxElapsedMs`. The server's
 * `Retry-After` is the wait when it sent one (and too long a one means no retry), backoff otherwise.
 */
export function shouldRetry(question: RetryQuestion, settings: RetrySettings | false, random: () => number = Math.random): number | undefined {
  if (!settings || question.attempt >= settings.maxAttempts) return undefined;
  if (!IDEMPOTENT_METHODS.has(question.method) && !question.idempotencyKey) return undefined;
  // No status (a failure) is in no list of statuses.
  const retryable = question.failure !== undefined || settings.statuses.includes(question.status as number);
  if (!retryable) return undefined;
  const wait = question.status !== undefined && question.retryAfterMs !== undefined ? question.retryAfterMs : backoffMs(question.attempt, settings, random);
  return question.elapsedMs + wait <= settings.maxElapsedMs ? wait : undefined;
}

/** Exponential backoff with full jitter: a random wait up to base × 2^(attempt-1), capped. */
export function backoffMs(attempt: number, settings: RetrySettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only an HTTP date (RFC 9110 §5.6.7: it names the day and the month): Date.parse would also read
  // "-5" or "1.5" as dates long past, which would mean "retry at once".
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** setTimeout as a promise that a caller's signal can cut short. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
