// The one page walker: `pixKeys()`, `exportKeys`/`exportKeyPages` and `verify` walk the cursor-paginated
// list through `walkCursorPages`, which holds every rule about cursors, so each bound lives here once:
// - a cursor is followed only as the contract writes one (at most CURSOR_MAX_LENGTH characters of
//   CURSOR_PATTERN, from src/generated/bounds.ts), checked before it is followed, yielded or journaled;
// - a cursor the walk already saw (among the last MAX_REMEMBERED_CURSORS) ends it: a looping server;
// - MAX_EMPTY_PAGES pages in a row that bring no key, each with a fresh cursor, end it too.
// Generic over the item: any operation whose page is `{ data: Item[], cursor: { next } }`.
import { BaasResponseError } from '../errors.js';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from '../generated/bounds.js';
import type { CallOptions } from './options.js';
import { Secrets } from '../redact.js';

/** Pages in a row that bring no key (each with a next cursor) before a walk ends with a BaasResponseError. */
export const MAX_EMPTY_PAGES = 10;
/** The cursors a walk remembers (the most recent), to refuse one sent again: memory stays bounded. */
export const MAX_REMEMBERED_CURSORS = 1_000;

/** The options of a walk over pages (`pixKeys()`): page size, a page limit, and each page's per-call options. */
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

/** One page of a walk: its items, the cursor it was asked with (undefined for the first) and the next one. */
export interface CursorPage<Item> {
  data: Item[];
  cursor: string | undefined;
  /** Undefined on the last page. */
  nextCursor: string | undefined;
}

/** A cursor rule a page broke: where, which rule, and whether the contract states it (drift) or the package bounds it. */
export interface CursorBreach {
  pointer: '/cursor/next' | '/data';
  rule: string;
  /** What the words of the error say after the rule: why the walk stopped and what to do. */
  why: string;
  /** The contract states the rule (verify reports it as drift); otherwise it is a bound of the package. */
  contract: boolean;
}

const CURSOR = new RegExp(CURSOR_PATTERN);

/** The cursor rules of one walk, in one place; `follow` answers each page. */
class CursorRules {
  private readonly remembered = new Set<string>();
  private emptyPages = 0;

  constructor(start: string | undefined) {
    if (start !== undefined) this.remember(start);
  }

  /** The cursor to ask for next (undefined on the last page), or the rule the page broke. */
  follow(page: Page<unknown>): { next: string | undefined } | { breach: CursorBreach } {
    const next = page.cursor?.next;
    if (next === null || next === undefined || next === '') return { next: undefined };
    // The length first: a 2 MB cursor is refused without a pattern run over it.
    if (typeof next !== 'string' || next.length > CURSOR_MAX_LENGTH || !CURSOR.test(next))
      return {
        breach: {
          pointer: '/cursor/next',
          rule: `must be a cursor of at most ${CURSOR_MAX_LENGTH} characters (letters, digits, . _ ~ = -) or null`,
          why: 'the walk stopped before following it, and nothing after the last page was recorded',
          contract: true,
        },
      };
    if (this.remembered.has(next))
      return {
        breach: {
          pointer: '/cursor/next',
          rule: 'must not repeat an earlier cursor',
          why: 'stopped to avoid an endless loop',
          contract: true,
        },
      };
    this.emptyPages = Array.isArray(page.data) && page.data.length > 0 ? 0 : this.emptyPages + 1;
    if (this.emptyPages >= MAX_EMPTY_PAGES)
      return {
        breach: {
          pointer: '/data',
          rule: `must bring a key within ${MAX_EMPTY_PAGES} pages in a row (the package's bound MAX_EMPTY_PAGES)`,
          why: `${MAX_EMPTY_PAGES} pages in a row brought no key but a new cursor; the walk stopped rather than go on without end. Ask the provider why its pages are empty`,
          contract: false,
        },
      };
    this.remember(next);
    return { next };
  }

  private remember(cursor: string): void {
    this.remembered.add(cursor);
    // A Set iterates in insertion order: the oldest goes first.
    if (this.remembered.size > MAX_REMEMBERED_CURSORS)
      this.remembered.delete(this.remembered.values().next().value as string);
  }
}

/** The BaasResponseError a breach ends a client's walk with: it names the rule and the page. */
function breachError(breach: CursorBreach, pagesRead: number): BaasResponseError {
  return new BaasResponseError(
    `page ${pagesRead} broke a rule of the page walk: ${breach.pointer === '/data' ? 'its data' : 'cursor.next'} ${breach.rule}; ${breach.why}`,
    { status: 200, problems: [{ part: 'body', pointer: breach.pointer, rule: breach.rule }] },
    // Our words: the rule and the page's number, no provider text, no value of a call.
    { operation: 'listPixKeys', secrets: Secrets.none },
  );
}

/**
 * The pages `fetchPage` returns, one at a time, from `cursor` (or the first page) to the last, under
 * every cursor rule of this module: a page that breaks one ends the walk with a BaasResponseError before
 * it is yielded. For a caller that records where it is, page by page, to resume.
 */
export async function* walkCursorPages<Item>(
  fetchPage: FetchPage<Item>,
  options: PageOptions & { cursor?: string | undefined },
): AsyncGenerator<CursorPage<Item>, void, undefined> {
  for await (const step of walkCursorSteps(fetchPage, options)) {
    if ('breach' in step) throw step.error;
    yield step;
  }
}

/**
 * The same walk, with a broken rule handed back as its last step instead of thrown: for `verify`,
 * which reports the rule as a row rather than failing.
 */
export async function* walkCursorSteps<Item>(
  fetchPage: FetchPage<Item>,
  options: PageOptions & { cursor?: string | undefined },
): AsyncGenerator<CursorPage<Item> | { breach: CursorBreach; error: BaasResponseError }, void, undefined> {
  const { maxPages, cursor: start, ...query } = options;
  let cursor = start === '' ? undefined : start;
  const rules = new CursorRules(cursor);
  for (let pagesRead = 0; maxPages === undefined || pagesRead < maxPages; ) {
    const page = await fetchPage(cursor === undefined ? query : { ...query, cursor });
    pagesRead += 1;
    const followed = rules.follow(page);
    if ('breach' in followed) {
      yield { breach: followed.breach, error: breachError(followed.breach, pagesRead) };
      return;
    }
    yield { data: page.data, cursor, nextCursor: followed.next };
    if (followed.next === undefined) return;
    cursor = followed.next;
  }
}

/**
 * The items of the walk, one at a time: an async iterator written by hand rather than as an async
 * generator, so that keys already in the page are handed out with one resolved promise each, without
 * a generator's per-item machinery (`npm run bench` showed that to cost more than the page fetch on
 * large pages). Pages come from `walkCursorPages`, so every cursor rule is its.
 */
class ItemIterator<Item> implements AsyncIterableIterator<Item> {
  private page: Item[] = [];
  private index = 0;
  private finished = false;
  private readonly pages: AsyncGenerator<CursorPage<Item>, void, undefined>;

  constructor(fetchPage: FetchPage<Item>, options: PageOptions) {
    this.pages = walkCursorPages(fetchPage, options);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Item, undefined>> {
    if (this.index < this.page.length) return Promise.resolve({ value: this.page[this.index++]!, done: false });
    return this.nextPage();
  }

  async return(): Promise<IteratorResult<Item, undefined>> {
    this.finish();
    await this.pages.return();
    return { value: undefined, done: true };
  }

  private finish(): void {
    this.finished = true;
    this.page = [];
  }

  private async nextPage(): Promise<IteratorResult<Item, undefined>> {
    while (!this.finished) {
      let step: IteratorResult<CursorPage<Item>, void>;
      try {
        step = await this.pages.next();
      } catch (error) {
        this.finish();
        throw error;
      }
      if (step.done) break;
      this.page = step.value.data;
      this.index = 0;
      if (this.page.length > 0) return { value: this.page[this.index++]!, done: false };
    }
    this.finish();
    return { value: undefined, done: true };
  }
}

/** The items of every page `fetchPage` returns, under the cursor rules of `walkCursorPages`. */
export function walkPages<Item>(fetchPage: FetchPage<Item>, options: PageOptions): AsyncIterableIterator<Item> {
  return new ItemIterator(fetchPage, options);
}
