// The options of updateMany and exportKeys, checked before anything is pulled or sent: a wrong option
// is a RangeError or TypeError naming the option and its rule, thrown by the call itself.
import type { RetryOptions } from '../client/retry.js';
import { retrySettings, type RetrySettings } from '../client/retry.js';
import type { RequestLimiter } from './limiter.js';
import type { BatchProgress } from './progress.js';
import { misspeltOptionProblem } from '../words.js';

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
    throw new TypeError(`${where}: options must be an object, got ${typeof options}`);
  return options as Record<string, unknown>;
}

// Every option's name, once: tsc fails here when the options gain or lose one.
const PACING_NAMES = Object.keys({ rate: true, limiter: true, signal: true, retry: true } satisfies Record<
  keyof PacingOptions,
  true
>);
const UPDATE_MANY_NAMES = [
  ...PACING_NAMES,
  ...Object.keys({ concurrency: true, inFlight: true, onProgress: true } satisfies Record<
    Exclude<keyof UpdateManyOptions, keyof PacingOptions>,
    true
  >),
];
/** Names a caller may bring from elsewhere: a rate limiter's word, the command line's and 0.2's page size. */
const BATCH_ALIASES = { rateLimit: 'rate', requestsPerSecond: 'rate', pageSize: 'limit' };

/** A misspelt option (`concurency`, `pageSize`) refused with the one meant; other members are left alone. */
export function checkNames(options: object, where: string, known: readonly string[]): void {
  const aliases = Object.fromEntries(Object.entries(BATCH_ALIASES).filter(([, meant]) => known.includes(meant)));
  const misspelt = misspeltOptionProblem(where, options, known, aliases);
  if (misspelt !== undefined) throw new TypeError(misspelt);
}

export function checkPacing(options: PacingOptions, where: string): PacingSettings {
  const { rate, limiter, signal, retry } = options;
  if (rate !== undefined && !(typeof rate === 'number' && rate >= MIN_RATE && rate <= MAX_RATE))
    throw new RangeError(`${where}: rate must be a number of requests per second from ${MIN_RATE} to ${MAX_RATE}`);
  if (limiter !== undefined && typeof (limiter as Partial<RequestLimiter> | null)?.take !== 'function')
    throw new TypeError(`${where}: limiter must be an object with a take(signal) method returning a promise`);
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new TypeError(`${where}: signal must be an AbortSignal`);
  if (retry !== undefined && retry !== false && (typeof retry !== 'object' || retry === null))
    throw new TypeError(`${where}: retry must be retry settings (an object) or false`);
  let settings: RetrySettings | false;
  try {
    settings = retrySettings(retry === false ? false : { ...BATCH_RETRY, ...retry });
  } catch (error) {
    throw new RangeError(`${where}: ${(error as Error).message}`);
  }
  return { rate, limiter, signal, retry: settings };
}

export function checkUpdateManyOptions(options: UpdateManyOptions | undefined): UpdateManySettings {
  const where = 'updateMany';
  const given = checkObject(options, where) as UpdateManyOptions;
  checkNames(given, where, UPDATE_MANY_NAMES);
  const concurrency = given.concurrency ?? DEFAULT_CONCURRENCY;
  if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= MAX_CONCURRENCY))
    throw new RangeError(`${where}: concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}`);
  const inFlight = given.inFlight ?? 'finish';
  if (inFlight !== 'finish' && inFlight !== 'abort')
    throw new RangeError(`${where}: inFlight must be 'finish' or 'abort'`);
  if (given.onProgress !== undefined && typeof given.onProgress !== 'function')
    throw new TypeError(`${where}: onProgress must be a function`);
  return { ...checkPacing(given, where), concurrency, inFlight, onProgress: given.onProgress };
}

export { checkObject, PACING_NAMES };
