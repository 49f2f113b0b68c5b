// Walks a cursor-paginated list page by page, holding one page at a time. Generic over the item:
// any operation whose page is `{ data: Item[], cursor: { next } }` (the spec's Cursor convention).
import { ResponseError } from '../errors.js';
import type { CallOptions } from './options.js';

export interface PageOptions extends CallOptions {
  /** Page size asked of the server. */
  limit?: number;
  /** Stop after this many pages. Default: no limit. */
  maxPages?: number;
}

/** Options of `pixKeys()`: page size, a page limit, and the per-call options of each page's call. */
export type PixKeysOptions = PageOptions;

export interface Page<Item> {
  data: Item[];
  cursor?: { next?: string | null | undefined } | undefined;
}

type FetchPage<Item> = (query: PageOptions & { cursor?: string }) => Promise<Page<Item>>;

/**
 * An async iterator written by hand rather than as an async generator: keys already in the page
 * are handed out with one resolved promise each, without a generator's per-item machinery, which
 * `npm run bench` showed to cost more than the page fetch on large pages.
 */
class CursorIterator<Item> implements AsyncIterableIterator<Item> {
  private page: Item[] = [];
  private index = 0;
  private pagesRead = 0;
  private cursor: string | undefined;
  private finished = false;
  /** The server said there is no next page. */
  private exhausted = false;
  private readonly seen = new Set<string>();

  private readonly query: PageOptions;
  private readonly maxPages: number | undefined;

  constructor(
    private readonly fetchPage: FetchPage<Item>,
    options: PageOptions,
  ) {
    const { maxPages, ...query } = options;
    this.maxPages = maxPages;
    this.query = query;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Item, undefined>> {
    if (this.index < this.page.length) return Promise.resolve({ value: this.page[this.index++]!, done: false });
    return this.nextPage();
  }

  return(): Promise<IteratorResult<Item, undefined>> {
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  private finish(): void {
    this.finished = true;
    this.page = [];
  }

  private async nextPage(): Promise<IteratorResult<Item, undefined>> {
    const maxPages = this.maxPages;
    while (!this.finished && !this.exhausted && (maxPages === undefined || this.pagesRead < maxPages)) {
      const result = await this.fetchPage(
        this.cursor === undefined ? this.query : { ...this.query, cursor: this.cursor },
      );
      this.pagesRead += 1;
      this.page = result.data;
      this.index = 0;
      this.advanceCursor(result.cursor?.next);
      if (this.page.length > 0) return { value: this.page[this.index++]!, done: false };
    }
    this.finish();
    return { value: undefined, done: true };
  }

  private advanceCursor(next: string | null | undefined): void {
    try {
      this.cursor = followCursor(next, this.seen, this.pagesRead);
    } catch (error) {
      this.finish();
      throw error;
    }
    if (this.cursor === undefined) this.exhausted = true;
  }
}

/**
 * The cursor to ask for next: undefined when the server sent none (the last page). A cursor the
 * server already sent is a ResponseError, so a looping server cannot make a walk endless.
 */
function followCursor(next: string | null | undefined, seen: Set<string>, pagesRead: number): string | undefined {
  if (next === null || next === undefined || next === '') return undefined;
  if (seen.has(next)) {
    throw new ResponseError(
      `the server sent a cursor it had already sent (page ${pagesRead}); stopped to avoid an endless loop`,
      {
        status: 200,
        problems: [{ part: 'body', pointer: '/cursor/next', rule: 'must not repeat an earlier cursor' }],
      },
      { operation: 'listPixKeys' },
    );
  }
  seen.add(next);
  return next;
}

/** The items of every page `fetchPage` returns; a cursor the server sends twice ends it with a ResponseError. */
export function walkPages<Item>(fetchPage: FetchPage<Item>, options: PageOptions): AsyncIterableIterator<Item> {
  return new CursorIterator(fetchPage, options);
}

/** One page of a walk: its items, the cursor it was asked with (undefined for the first) and the next one. */
export interface CursorPage<Item> {
  data: Item[];
  cursor: string | undefined;
  /** Undefined on the last page. */
  nextCursor: string | undefined;
}

/**
 * The pages `fetchPage` returns, one at a time, from `cursor` (or the first page) to the last; the
 * same cursor rules as walkPages. For a caller that records where it is, page by page, to resume.
 */
export async function* walkCursorPages<Item>(
  fetchPage: FetchPage<Item>,
  options: PageOptions & { cursor?: string | undefined },
): AsyncGenerator<CursorPage<Item>, void, undefined> {
  const { maxPages, cursor: start, ...query } = options;
  const seen = new Set<string>();
  let cursor = start === '' ? undefined : start;
  if (cursor !== undefined) seen.add(cursor);
  for (let pagesRead = 0; maxPages === undefined || pagesRead < maxPages; ) {
    const page = await fetchPage(cursor === undefined ? query : { ...query, cursor });
    pagesRead += 1;
    const nextCursor = followCursor(page.cursor?.next, seen, pagesRead);
    yield { data: page.data, cursor, nextCursor };
    if (nextCursor === undefined) return;
    cursor = nextCursor;
  }
}
