// When and how long to wait before another attempt: one decision, `shouldRetry`, as Stainless'
// `shouldRetry` and stripe-node's `_shouldRetry` are. Change the retry policy here and only here.
import { MAX_TIMER_MS } from '../transport/attempt.js';
import { isTimerMs } from '../transport/sleep.js';
import {
  checkOptions,
  must,
  optionError,
  type OptionHomes,
  type OptionRules,
  type OptionsPlace,
} from '../option-rules.js';

/** The `retry` option: how many attempts, and how long to wait between them. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** First backoff step. Default 250 ms; doubles each attempt, with full jitter. */
  baseDelayMs?: number;
  /** Largest backoff step. Default 5 000 ms. */
  maxDelayMs?: number;
  /** No attempt starts after this much time since the first. Default 30 000 ms; `Infinity` for no bound. */
  maxElapsedMs?: number;
  /**
   * The longest single wait a server's `Retry-After` may ask for. Default 60 000 ms. A `Retry-After`
   * longer than this, or longer than the time `maxElapsedMs` leaves, ends the retries: the call
   * rejects with the `BaasApiError`, whose `retryAfterMs` says what the server asked.
   */
  maxRetryAfterMs?: number;
  /** Statuses worth another attempt. Default 429, 502, 503, 504. */
  statuses?: readonly number[];
}

export type RetrySettings = Required<RetryOptions>;

export const DEFAULT_RETRY: RetrySettings = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxElapsedMs: 30_000,
  maxRetryAfterMs: 60_000,
  statuses: Object.freeze([429, 502, 503, 504]),
});

// Each setting's rule, once: tsc fails here when RetryOptions gains or loses one. Its names are the ones a
// misspelt setting is checked against, with the names a caller brings from other libraries.
const TIMER_WAIT = must(isTimerMs, `must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
const RETRY_RULES: OptionRules<RetryOptions> = {
  maxAttempts: must(
    (value) => Number.isInteger(value) && (value as number) >= 1,
    'must be a whole number of at least 1',
  ),
  baseDelayMs: TIMER_WAIT,
  maxDelayMs: TIMER_WAIT,
  // Never a timer by itself (waits are checked against what it leaves), so Infinity may mean no bound.
  maxElapsedMs: must(
    (value) => typeof value === 'number' && value >= 0,
    'must be a number of milliseconds of at least 0 (Infinity for no bound)',
  ),
  maxRetryAfterMs: TIMER_WAIT,
  statuses: must(
    (value) =>
      Array.isArray(value) && value.every((status) => Number.isInteger(status) && status >= 100 && status <= 599),
    'must be a list of HTTP statuses (whole numbers from 100 to 599)',
  ),
};
const OTHER_NAMES = { retries: 'maxAttempts', attempts: 'maxAttempts', statusCodes: 'statuses' };

/**
 * Where each retry setting goes, for the options that hold a `retry` (a call's): its own names and the
 * names other libraries give them (openai-node's per-request `maxRetries`), each as `retry: { maxAttempts }`.
 */
export const RETRY_HOMES: OptionHomes = Object.fromEntries([
  ...Object.keys(RETRY_RULES).map((name) => [name, `retry: { ${name} }`]),
  ...Object.entries({ ...OTHER_NAMES, maxRetries: 'maxAttempts' }).map(([name, meant]) => [
    name,
    `retry: { ${meant} }`,
  ]),
]);

/**
 * The settings `option` stands for: `false` none (one attempt), `true` or undefined the defaults, an
 * object its settings over the defaults (a member given as undefined is the default). A misspelt setting
 * or a value its rule refuses is a BaasOptionError at `place` (`retry` of createBaasClient, say).
 */
export function retrySettings(
  option: RetryOptions | boolean | undefined,
  place: OptionsPlace = { path: 'retry' },
): RetrySettings | false {
  if (option === false) return false;
  if (option === true || option === undefined) return { ...DEFAULT_RETRY };
  const { where, path = 'retry' } = typeof place === 'string' ? { where: place } : place;
  if (typeof option !== 'object' || option === null || Array.isArray(option))
    throw optionError({ where, option: path, rule: 'must be true, false or retry settings ({ maxAttempts, … })' });
  // `{ maxAttempt: 5 }` or `{ retries: 5 }` would otherwise retry with the defaults without a word.
  checkOptions({ where, path }, option, RETRY_RULES, { aliases: OTHER_NAMES });
  const given = Object.fromEntries(Object.entries(option).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_RETRY, ...given };
}

// The longest timer, the transport's (a longer one would fire at once).
export { MAX_TIMER_MS };

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
 * `Retry-After` is the wait when it sent one, backoff otherwise; a `Retry-After` over `maxRetryAfterMs`
 * or past what `maxElapsedMs` leaves means no retry. Every wait fits a timer (at most MAX_TIMER_MS).
 */
export function shouldRetry(
  question: RetryQuestion,
  settings: RetrySettings | false,
  random: () => number = Math.random,
): number | undefined {
  if (!settings || question.attempt >= settings.maxAttempts) return undefined;
  if (!IDEMPOTENT_METHODS.has(question.method) && !question.idempotencyKey) return undefined;
  // No status (a failure) is in no list of statuses.
  const retryable = question.failure !== undefined || settings.statuses.includes(question.status as number);
  if (!retryable) return undefined;
  const asked = question.status !== undefined ? question.retryAfterMs : undefined;
  // A server asking for longer than the caller allows gets no retry rather than a shorter wait.
  if (asked !== undefined && !(asked <= settings.maxRetryAfterMs)) return undefined;
  const wait = asked ?? backoffMs(question.attempt, settings, random);
  return question.elapsedMs + wait <= settings.maxElapsedMs ? wait : undefined;
}

/** Exponential backoff with full jitter: a random wait up to base × 2^(attempt-1), capped. */
export function backoffMs(attempt: number, settings: RetrySettings, random: () => number = Math.random): number {
  // The exponent stops at 31: base × 2^31 is already past any maxDelayMs, and 0 × Infinity would be NaN.
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.min(attempt - 1, 31));
  return Math.floor(random() * ceiling);
}

// The one reading of Retry-After is the transport's, shared with the token request and verify.
export { parseRetryAfter } from '../transport/retry-after.js';
