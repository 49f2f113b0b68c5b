// The page walker behind pixKeys() and the iterator that loads it on the first next(), driven by a
// fake page source: which queries it sends, when it stops, what a repeated cursor does.
import { describe, expect, it, vi } from 'vitest';
import { lazyIterator } from '../../src/client/lazy-iterator.js';
import { walkPages, type Page, type PageOptions } from '../../src/client/pagination.js';

type Query = PageOptions & { cursor?: string };

/** A page source serving `pages` in order (the last one again when asked for more), recording each query. */
function pageSource(pages: Page<string>[]) {
  const queries: Query[] = [];
  const fetchPage = vi.fn(async (query: Query) => {
    queries.push(query);
    return pages[Math.min(queries.length - 1, pages.length - 1)]!;
  });
  return { fetchPage, queries };
}

const repeated = (message: string) => new Error(message);

async function collect<T>(iterator: AsyncIterableIterator<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('walkPages', () => {
  it('asks for the first page with the options but maxPages, then follows cursor.next until it is null', async () => {
    const { fetchPage, queries } = pageSource([
      { data: ['a', 'b'], cursor: { next: 'c2' } },
      { data: ['c'], cursor: { next: 'c3' } },
      { data: ['d'], cursor: { next: null } },
    ]);
    const items = await collect(walkPages(fetchPage, { limit: 2, timeoutMs: 900, maxPages: 10 }, repeated));
    expect(items).toEqual(['a', 'b', 'c', 'd']);
    expect(queries).toStrictEqual([{ limit: 2, timeoutMs: 900 }, { limit: 2, timeoutMs: 900, cursor: 'c2' }, { limit: 2, timeoutMs: 900, cursor: 'c3' }]);
  });

  it.each([
    ['an empty string', { next: '' }],
    ['an absent next', {}],
    ['no cursor at all', undefined],
  ])('stops at %s', async (_name, cursor) => {
    const { fetchPage } = pageSource([{ data: ['a'], ...(cursor ? { cursor } : {}) }, { data: ['never'], cursor: { next: null } }]);
    expect(await collect(walkPages(fetchPage, {}, repeated))).toEqual(['a']);
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('goes past empty pages that still have a next cursor', async () => {
    const { fetchPage } = pageSource([
      { data: [], cursor: { next: 'c2' } },
      { data: [], cursor: { next: 'c3' } },
      { data: ['z'], cursor: { next: null } },
    ]);
    expect(await collect(walkPages(fetchPage, {}, repeated))).toEqual(['z']);
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('an empty last page ends the walk, and next() after the end fetches nothing more', async () => {
    const { fetchPage } = pageSource([{ data: [], cursor: { next: null } }]);
    const walk = walkPages(fetchPage, {}, repeated);
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('stops after maxPages pages; maxPages 0 fetches nothing', async () => {
    const endless = (n: number): Page<string> => ({ data: [`k${n}`], cursor: { next: `c${n + 1}` } });
    const { fetchPage } = pageSource([endless(1), endless(2), endless(3), endless(4)]);
    expect(await collect(walkPages(fetchPage, { maxPages: 2 }, repeated))).toEqual(['k1', 'k2']);
    expect(fetchPage).toHaveBeenCalledTimes(2);
    const none = pageSource([endless(1)]);
    expect(await collect(walkPages(none.fetchPage, { maxPages: 0 }, repeated))).toEqual([]);
    expect(none.fetchPage).not.toHaveBeenCalled();
  });

  it('a cursor sent again, even pages later, is the error built by `repeated`, naming the page; then the walk is over', async () => {
    const { fetchPage } = pageSource([
      { data: ['a'], cursor: { next: 'A' } },
      { data: ['b'], cursor: { next: 'B' } },
      { data: ['c'], cursor: { next: 'A' } },
    ]);
    const walk = walkPages(fetchPage, {}, repeated);
    await expect(walk.next()).resolves.toStrictEqual({ value: 'a', done: false });
    await expect(walk.next()).resolves.toStrictEqual({ value: 'b', done: false });
    await expect(walk.next()).rejects.toThrow(new Error('the server sent a cursor it had already sent (page 3); stopped to avoid an endless loop'));
    // The page that carried the repeated cursor is not handed out, and nothing more is fetched.
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('return() in the middle of a page drops the rest of it and fetches nothing more', async () => {
    const { fetchPage } = pageSource([{ data: ['a', 'b', 'c'], cursor: { next: 'c2' } }]);
    const walk = walkPages(fetchPage, {}, repeated);
    expect(walk[Symbol.asyncIterator]()).toBe(walk);
    await expect(walk.next()).resolves.toStrictEqual({ value: 'a', done: false });
    await expect(walk.return!()).resolves.toStrictEqual({ value: undefined, done: true });
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it("a page that fails rejects with the page source's error", async () => {
    const failure = new Error('HTTP 503');
    const walk = walkPages(() => Promise.reject(failure), {}, repeated);
    await expect(walk.next()).rejects.toBe(failure);
  });
});

describe('lazyIterator', () => {
  const walker = (items: string[], withReturn = true) => {
    let index = 0;
    const inner: AsyncIterator<string, undefined> = {
      next: vi.fn(async () => (index < items.length ? { value: items[index++]!, done: false as const } : { value: undefined, done: true as const })),
      ...(withReturn ? { return: vi.fn(async () => ({ value: undefined, done: true as const })) } : {}),
    };
    return inner;
  };

  it('loads the walker once, on the first next(), even when next() is called twice at once', async () => {
    const inner = walker(['a', 'b']);
    const load = vi.fn(async () => inner);
    const iterator = lazyIterator(load);
    expect(iterator[Symbol.asyncIterator]()).toBe(iterator);
    expect(load).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([iterator.next(), iterator.next()]);
    expect([first, second]).toStrictEqual([
      { value: 'a', done: false },
      { value: 'b', done: false },
    ]);
    await expect(iterator.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a load that fails rejects that next(), and the next next() loads again', async () => {
    const failure = new Error('chunk failed to load');
    const load = vi.fn<() => Promise<AsyncIterator<string, undefined>>>().mockRejectedValueOnce(failure).mockResolvedValueOnce(walker(['a']));
    const iterator = lazyIterator(load);
    await expect(iterator.next()).rejects.toBe(failure);
    await expect(iterator.next()).resolves.toStrictEqual({ value: 'a', done: false });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('return() before the first next() loads nothing, then or later', async () => {
    const load = vi.fn(async () => walker(['a']));
    const iterator = lazyIterator(load);
    await expect(iterator.return!()).resolves.toStrictEqual({ value: undefined, done: true });
    await expect(iterator.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(load).not.toHaveBeenCalled();
  });

  it('return() while the walker loads: the pending next() ends, and the walker is never asked', async () => {
    const inner = walker(['a']);
    let finishLoad!: (value: AsyncIterator<string, undefined>) => void;
    const iterator = lazyIterator(() => new Promise<AsyncIterator<string, undefined>>((resolve) => (finishLoad = resolve)));
    const pending = iterator.next();
    await expect(iterator.return!()).resolves.toStrictEqual({ value: undefined, done: true });
    finishLoad(inner);
    await expect(pending).resolves.toStrictEqual({ value: undefined, done: true });
    expect(inner.next).not.toHaveBeenCalled();
  });

  it("return() after the load is the walker's own return(), or done when it has none", async () => {
    const inner = walker(['a', 'b']);
    const iterator = lazyIterator(async () => inner);
    await iterator.next();
    await expect(iterator.return!()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(inner.return).toHaveBeenCalledTimes(1);

    const bare = lazyIterator(async () => walker(['a'], false));
    await bare.next();
    await expect(bare.return!()).resolves.toStrictEqual({ value: undefined, done: true });
  });
});
