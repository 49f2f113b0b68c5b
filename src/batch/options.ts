// The options of updateMany and exportKeys, checked before anything is pulled or sent: a wrong option
// is a RangeError or TypeError naming the option and its rule, thrown by the call itself.
import type { RetryOptions } from '../client/retry.js';
import { retrySettings, type RetrySettings } from '../client/retry.js';
import type { RequestLimiter } from './limiter.js';
import type { BatchProgress } from './progress.js';
import {
  checkOptions,
  isBaasOptionError,
  isFunction,
  must,
  optionError,
  type OptionRules,
  within,
} from '../option-rules.js';

/** Options shared by `updateMany` and `exportKeys`: how fast, and when to stop. */
export interface PacingOptions {
  /** A ceiling in requests per second, over every attempt (retries included). Default: none. */
  rate?: number | undefined;
  /**
   * Paces every attempt, retries included: `take()` is awaited before each request is sent. Give one
   * shared by several processes (see docs/guides/batch.md) to keep all of them under one limit.
   */
  limiter?: RequestLimiter | undefined;
  /** Stops the work: see each function for what happens to the requests already sent. */
  signal?: AbortSignal | undefined;
  /**
   * Retries of each request, made by the batch itself so that every attempt is paced: network
   * failures, timeouts and 429, 502, 503 and 504 (a server's `Retry-After` is waited). These settings
   * replace the client's own `retry` for the batch's calls. Default: the client's defaults with
   * `maxAttempts: 5`. `false` sends each request once.
   */
  retry?: RetryOptions | false | undefined;
}

/** The options of `updateMany`: concurrency, the signal that stops it, and the batch's pacing. */
export interface UpdateManyOptions extends PacingOptions {
  /** The most items in flight at once: a whole number from 1 to 256. Default 8. */
  concurrency?: number | undefined;
  /**
   * What aborting `signal` does to the requests already sent. `'finish'` (the default): no item is
   * pulled and no attempt starts after the abort, and the requests on the wire finish and yield their
   * results. `'abort'`: they are aborted too and yield nothing.
   */
  inFlight?: 'finish' | 'abort' | undefined;
  /** Hears the counts after each result and each change of concurrency. A throwing hook never stops the batch. */
  onProgress?: ((progress: BatchProgress) => void) | undefined;
}

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 256;
/** Rates outside this range are mistakes (a timer cannot space requests further apart than about 24 days). */
export const MIN_RATE = 0.001;
export const MAX_RATE = 100_000;
const BATCH_RETRY: RetryOptions = { maxAttempts: 5 };

export interface PacingSettings {
  rate: number | undefined;
  limiter: RequestLimiter | undefined;
  signal: AbortSignal | undefined;
  retry: RetrySettings | false;
}

export interface UpdateManySettings extends PacingSettings {
  concurrency: number;
  inFlight: 'finish' | 'abort';
  onProgress: ((progress: BatchProgress) => void) | undefined;
}

function checkObject(options: unknown, where: string): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null)
    throw optionError({ where, option: 'options', rule: `must be an object, got ${typeof options}` });
  return options as Record<string, unknown>;
}

// Each option's rule, once: its name is what "did you mean" offers, and tsc fails here when the options
// gain or lose one. `retry`'s own settings are checked by retrySettings (src/client/retry.ts).
export const PACING_RULES: OptionRules<PacingOptions> = {
  rate: within(
    (rate) => typeof rate === 'number' && rate >= MIN_RATE && rate <= MAX_RATE,
    `must be a number of requests per second from ${MIN_RATE} to ${MAX_RATE}`,
  ),
  limiter: must(
    (limiter) => isFunction((limiter as Partial<RequestLimiter> | null)?.take),
    'must be an object with a take(signal) method returning a promise',
  ),
  signal: must((signal) => signal instanceof AbortSignal, 'must be an AbortSignal'),
  retry: must(
    (retry) => retry === false || (typeof retry === 'object' && retry !== null),
    'must be retry settings (an object) or false',
  ),
};

const UPDATE_MANY_RULES: OptionRules<UpdateManyOptions> = {
  ...PACING_RULES,
  concurrency: within(
    (concurrency) =>
      Number.isInteger(concurrency) && (concurrency as number) >= 1 && (concurrency as number) <= MAX_CONCURRENCY,
    `must be a whole number from 1 to ${MAX_CONCURRENCY}`,
  ),
  inFlight: within((inFlight) => inFlight === 'finish' || inFlight === 'abort', "must be 'finish' or 'abort'"),
  onProgress: must(isFunction, 'must be a function'),
};

/** Names a caller may bring from elsewhere: a rate limiter's word, the command line's and 0.2's page size. */
const BATCH_ALIASES = { rateLimit: 'rate', requestsPerSecond: 'rate', pageSize: 'limit' };

/** `options` checked against `rules` (a misspelt name refused with the one meant; other members are left alone). */
export function checkBatchOptions<X extends object>(options: X, where: string, rules: OptionRules<X>): void {
  const aliases = Object.fromEntries(Object.entries(BATCH_ALIASES).filter(([, meant]) => Object.hasOwn(rules, meant)));
  checkOptions(where, options, rules, { aliases });
}

/** The pacing settings of options already checked against rules that hold PACING_RULES. */
export function pacingSettings(options: PacingOptions, where: string): PacingSettings {
  const { rate, limiter, signal, retry } = options;
  let settings: RetrySettings | false;
  try {
    settings = retrySettings(retry === false ? false : { ...BATCH_RETRY, ...retry }, { where, path: 'retry' });
  } catch (error) {
    // A batch's settings out of their bounds, as every other option of the batch: the same data, a RangeError.
    throw isBaasOptionError(error) ? optionError(error, RangeError) : error;
  }
  return { rate, limiter, signal, retry: settings };
}

export function checkUpdateManyOptions(options: UpdateManyOptions | undefined): UpdateManySettings {
  const where = 'updateMany';
  const given = checkObject(options, where) as UpdateManyOptions;
  checkBatchOptions(given, where, UPDATE_MANY_RULES);
  return {
    ...pacingSettings(given, where),
    concurrency: given.concurrency ?? DEFAULT_CONCURRENCY,
    inFlight: given.inFlight ?? 'finish',
    onProgress: given.onProgress,
  };
}

export { checkObject };
