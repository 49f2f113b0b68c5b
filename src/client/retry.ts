// When and how long to wait before another attempt.

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
  const settings = { ...DEFAULT_RETRY, ...(option === true || option === undefined ? {} : option) };
  if (!Number.isInteger(settings.maxAttempts) || settings.maxAttempts < 1) {
    throw new TypeError('retry.maxAttempts must be a whole number of at least 1');
  }
  return settings;
}

/** Exponential backoff with full jitter: a random wait up to base × 2^(attempt-1), capped. */
export function backoffMs(attempt: number, settings: RetrySettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
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
