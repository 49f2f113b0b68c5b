// exportKeys and exportKeyPages: every PIX key of the account, page after page through the client's
// own page walk, each page request paced like updateMany's (rate, discovered limit, limiter), retries
// included: the pacing is a policy of the client's one retry loop (attempts.ts). Pages carry their cursors, so a caller can resume.
import type { ListPixKeysInput } from '../client/baas-client.js';
import { walkCursorPages } from '../client/pagination.js';
import type { PixKey, PixKeyList } from '../types.js';
import { validateListPixKeysQuery } from '../validation/index.js';
import { sendPaced, statedRateLimit } from './attempts.js';
import { AwaitableRun } from './awaitable-run.js';
import {
  checkBatchOptions,
  checkObject,
  PACING_RULES,
  pacingSettings,
  type PacingOptions,
  type PacingSettings,
} from './options.js';
import { isFunction, must, type OptionRules } from '../option-rules.js';
import { Pacing } from './pacing.js';

/** What exportKeys needs of a client: `createBaasClient`'s does (any promise of a page will do). */
export interface ExportClient {
  /** One page of keys: `limit` and `cursor` as the client's `listPixKeys` takes them. */
  listPixKeys(input?: ListPixKeysInput): Promise<PixKeyList>;
}

/** The options of `exportKeys`: the page size, where to resume, the page hook, and the batch's pacing. */
export interface ExportKeysOptions extends PacingOptions {
  /** Keys per page asked of the server (the contract's `limit` query parameter). Default: the server's. */
  limit?: number | undefined;
  /** Resume: the `nextCursor` of the last page already handled; the walk starts at the page after it. */
  after?: string | undefined;
  /**
   * `exportKeys` only: hears each page once all its keys have been pulled from the iterator, so its
   * `nextCursor` is the `after` that resumes after it (a page left half-read is never reported).
   * A throwing hook stops the export with its error.
   */
  onPage?: ((page: KeyPage) => void) | undefined;
}

/** One page of an export. */
export interface KeyPage {
  /** The page's keys, in the server's order. */
  keys: PixKey[];
  /** The cursor this page was asked with (undefined for the first page). */
  cursor: string | undefined;
  /** The cursor of the next page, to pass as `after` to resume; undefined on the last page. */
  nextCursor: string | undefined;
}

/** What `await exportKeys(...)` (or `exportKeyPages`) resolves with once the walk has ended. */
export interface ExportSummary {
  /** Pages handled: every key of the page read (for exportKeys, `onPage` heard it). */
  pages: number;
  /** The keys of the pages handled. */
  keys: number;
  /** True when the walk reached the last page; false when `signal` stopped it or a `break` left it. */
  complete: boolean;
  /**
   * The `after` that resumes this export: the `nextCursor` of the last page handled (the `after` it
   * was given when none was); undefined once the walk is complete.
   */
  after: string | undefined;
}

/**
 * A run of exportKeys (each key) or exportKeyPages (each page): `for await` reads them as they
 * arrive; `await` walks every page and resolves with the {@link ExportSummary} (use `onPage` to
 * handle the keys then), or rejects with the BaasError of a page that failed after its retries.
 * A plain `for` is a TypeError (and a type error). Nothing is sent before one of the two.
 */
export interface ExportKeysRun<T> extends Promise<ExportSummary>, AsyncIterable<T> {
  /** The keys (or pages) as they arrive (`for await`); a TypeError once the run was awaited without it. */
  [Symbol.asyncIterator](): AsyncIterableIterator<T>;
}

interface ExportSettings extends PacingSettings {
  limit: number | undefined;
  after: string | undefined;
  onPage: ((page: KeyPage) => void) | undefined;
}

// Each option's rule, once (tsc fails here when ExportKeysOptions gains or loses one); `limit` is the
// contract's own rule for the query parameter.
const EXPORT_RULES: OptionRules<ExportKeysOptions> = {
  ...PACING_RULES,
  limit: {
    check: (limit) =>
      typeof limit === 'number' ? validateListPixKeysQuery({ limit })[0]?.message : 'must be a number',
    error: RangeError,
  },
  after: must(
    (after) => typeof after === 'string' && after !== '',
    "must be a non-empty cursor string (a page's nextCursor)",
  ),
  onPage: must(isFunction, 'must be a function'),
};

function checkExportOptions(options: ExportKeysOptions | undefined, where: string): ExportSettings {
  const given = checkObject(options, where) as ExportKeysOptions;
  checkBatchOptions(given, where, EXPORT_RULES);
  return { ...pacingSettings(given, where), limit: given.limit, after: given.after, onPage: given.onPage };
}

/**
 * Every page of the account's PIX keys, in the server's order, with its cursors: write a page, record
 * its `nextCursor`, and pass that as `after` to resume where you stopped (no key is read twice). Each
 * page request is paced by `rate`, the provider's stated limit and `limiter`, and retried (paced too).
 * Aborting `signal` ends the walk quietly before the next page. A page that fails after its retries
 * ends it with the BaasError; so does a server that repeats a cursor (a BaasResponseError).
 */
export function exportKeyPages(client: ExportClient, options?: ExportKeysOptions): ExportKeysRun<KeyPage> {
  if (typeof client?.listPixKeys !== 'function')
    throw new TypeError('exportKeyPages: client must be a client of createBaasClient');
  const settings = checkExportOptions(options, 'exportKeyPages');
  return run('exportKeyPages', settings, (tally) => pagesOf(pages(client, settings, tally), tally));
}

/**
 * The batch export: every PIX key of the account, one at a time, one page in memory, each page request
 * paced and retried as `exportKeyPages` does (same options); `onPage` gives the cursor to resume with.
 * (`client.pixKeys()` is the plain walk, unpaced, with the client's own retries.)
 */
export function exportKeys(client: ExportClient, options?: ExportKeysOptions): ExportKeysRun<PixKey> {
  if (typeof client?.listPixKeys !== 'function')
    throw new TypeError('exportKeys: client must be a client of createBaasClient');
  const settings = checkExportOptions(options, 'exportKeys');
  return run('exportKeys', settings, (tally) => keysOf(pages(client, settings, tally), settings.onPage, tally));
}

/** The counts of a walk, as its summary says them. */
class Tally {
  pages = 0;
  keys = 0;
  complete = false;
  constructor(public after: string | undefined) {}

  handled(page: KeyPage): void {
    this.pages += 1;
    this.keys += page.keys.length;
    this.after = page.nextCursor;
  }

  summary(): ExportSummary {
    return { pages: this.pages, keys: this.keys, complete: this.complete, after: this.after };
  }
}

function run<T>(
  name: string,
  settings: ExportSettings,
  walk: (tally: Tally) => AsyncGenerator<T, void>,
): ExportKeysRun<T> {
  const tally = new Tally(settings.after);
  let ended!: () => void;
  let failed!: (error: unknown) => void;
  const end = new Promise<void>((resolve, reject) => {
    ended = resolve;
    failed = reject;
  });
  // Read by settled(); a walk that fails before anyone awaits it is no unhandled rejection.
  end.catch(() => {});
  async function* tracked(): AsyncGenerator<T, void> {
    try {
      yield* walk(tally);
    } catch (error) {
      failed(error);
      throw error;
    } finally {
      ended();
    }
  }
  const iterator = tracked();
  return new AwaitableRun<T, ExportSummary>(name, {
    iterator,
    settled: () => end.then(() => tally.summary()),
  });
}

async function* keysOf(
  walk: AsyncGenerator<KeyPage, void>,
  onPage: ((page: KeyPage) => void) | undefined,
  tally: Tally,
): AsyncGenerator<PixKey, void> {
  for await (const page of walk) {
    yield* page.keys;
    tally.handled(page);
    onPage?.(page);
  }
}

async function* pagesOf(walk: AsyncGenerator<KeyPage, void>, tally: Tally): AsyncGenerator<KeyPage, void> {
  // A page is handled once the next is asked for (a `break` while writing it leaves it unhandled).
  for await (const page of walk) {
    yield page;
    tally.handled(page);
  }
}

/** Thrown inside the walk when the signal stopped a page before it was sent. */
const STOPPED = Symbol('stopped');

async function* pages(client: ExportClient, settings: ExportSettings, tally: Tally): AsyncGenerator<KeyPage, void> {
  const pacing = new Pacing(settings);
  const stop = settings.signal ?? new AbortController().signal;
  const fetchPage = async (query: { limit?: number; cursor?: string }): Promise<PixKeyList> => {
    const outcome = await sendPaced((call) => client.listPixKeys({ ...query, ...call }), {
      pacing,
      retry: settings.retry,
      stop,
      sending: () => 0,
      answered: (_number, tried) => pacing.learn(statedRateLimit(tried)),
    });
    if (outcome === undefined) throw STOPPED;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
  try {
    const query = settings.limit === undefined ? {} : { limit: settings.limit };
    for await (const page of walkCursorPages(fetchPage, { ...query, cursor: settings.after })) {
      yield { keys: page.data, cursor: page.cursor, nextCursor: page.nextCursor };
    }
    tally.complete = true;
  } catch (error) {
    if (error === STOPPED || stop.aborted) return;
    throw error;
  }
}
