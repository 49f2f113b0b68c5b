// The page walker behind pixKeys(), driven by a fake page source: which queries it sends, when it
// stops, what a repeated cursor does.
import { describe, expect, it, vi } from 'vitest';
import { walkPages, type Page, type PageOptions } from '../../src/client/pagination.js';
import { BaasResponseError } from '../../src/errors.js';

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
    const items = await collect(walkPages(fetchPage, { limit: 2, timeoutMs: 900, maxPages: 10 }));
    expect(items).toEqual(['a', 'b', 'c', 'd']);
    expect(queries).toStrictEqual([
      { limit: 2, timeoutMs: 900 },
      { limit: 2, timeoutMs: 900, cursor: 'c2' },
      { limit: 2, timeoutMs: 900, cursor: 'c3' },
    ]);
  });

  it.each([
    ['an empty string', { next: '' }],
    ['an absent next', {}],
    ['no cursor at all', undefined],
  ])('stops at %s', async (_name, cursor) => {
    const { fetchPage } = pageSource([
      { data: ['a'], ...(cursor ? { cursor } : {}) },
      { data: ['never'], cursor: { next: null } },
    ]);
    expect(await collect(walkPages(fetchPage, {}))).toEqual(['a']);
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('goes past empty pages that still have a next cursor', async () => {
    const { fetchPage } = pageSource([
      { data: [], cursor: { next: 'c2' } },
      { data: [], cursor: { next: 'c3' } },
      { data: ['z'], cursor: { next: null } },
    ]);
    expect(await collect(walkPages(fetchPage, {}))).toEqual(['z']);
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('an empty last page ends the walk, and next() after the end fetches nothing more', async () => {
    const { fetchPage } = pageSource([{ data: [], cursor: { next: null } }]);
    const walk = walkPages(fetchPage, {});
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('stops after maxPages pages; maxPages 0 fetches nothing', async () => {
    const endless = (n: number): Page<string> => ({ data: [`k${n}`], cursor: { next: `c${n + 1}` } });
    const { fetchPage } = pageSource([endless(1), endless(2), endless(3), endless(4)]);
    expect(await collect(walkPages(fetchPage, { maxPages: 2 }))).toEqual(['k1', 'k2']);
    expect(fetchPage).toHaveBeenCalledTimes(2);
    const none = pageSource([endless(1)]);
    expect(await collect(walkPages(none.fetchPage, { maxPages: 0 }))).toEqual([]);
    expect(none.fetchPage).not.toHaveBeenCalled();
  });

  it('a cursor sent again, even pages later, is a BaasResponseError naming the page; then the walk is over', async () => {
    const { fetchPage } = pageSource([
      { data: ['a'], cursor: { next: 'A' } },
      { data: ['b'], cursor: { next: 'B' } },
      { data: ['c'], cursor: { next: 'A' } },
    ]);
    const walk = walkPages(fetchPage, {});
    await expect(walk.next()).resolves.toStrictEqual({ value: 'a', done: false });
    await expect(walk.next()).resolves.toStrictEqual({ value: 'b', done: false });
    const error = await walk.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect(error).toMatchObject({
      operation: 'listPixKeys',
      status: 200,
      problems: [{ part: 'body', pointer: '/cursor/next', rule: 'must not repeat an earlier cursor' }],
    });
    expect((error as BaasResponseError).message).toContain('page 3 broke a rule of the page walk');
    // The page that carried the repeated cursor is not handed out, and nothing more is fetched.
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('return() in the middle of a page drops the rest of it and fetches nothing more', async () => {
    const { fetchPage } = pageSource([{ data: ['a', 'b', 'c'], cursor: { next: 'c2' } }]);
    const walk = walkPages(fetchPage, {});
    expect(walk[Symbol.asyncIterator]()).toBe(walk);
    await expect(walk.next()).resolves.toStrictEqual({ value: 'a', done: false });
    await expect(walk.return!()).resolves.toStrictEqual({ value: undefined, done: true });
    await expect(walk.next()).resolves.toStrictEqual({ value: undefined, done: true });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it("a page that fails rejects with the page source's error", async () => {
    const failure = new Error('HTTP 503');
    const walk = walkPages(() => Promise.reject(failure), {});
    await expect(walk.next()).rejects.toBe(failure);
  });
});
