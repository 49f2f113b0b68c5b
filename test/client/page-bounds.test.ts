// The bounds of the one page walker (src/client/pagination.ts), through the public entry with an
// injected fetch: pixKeys() and exportKeys/exportKeyPages walk the same rules. A hostile provider sends
// a cursor past the contract's 512 characters, pages without a key but with a fresh cursor forever, or
// a cursor it already sent; each walk ends with a BaasResponseError naming the rule, and the page that
// broke it is never handed out (so the export never journals its cursor).
import { describe, expect, it } from 'vitest';
import { createBaasClient, exportKeys, BaasResponseError } from '../../src/index.js';
// exportKeyPages is what the command line's export-keys walks (it journals each page's nextCursor).
import { exportKeyPages } from '../../src/batch/export-keys.js';
import { MAX_EMPTY_PAGES, MAX_REMEMBERED_CURSORS, walkPages, type Page } from '../../src/client/pagination.js';
import { CURSOR_MAX_LENGTH } from '../../src/generated/bounds.js';
import { exampleValue } from '../support/fixtures.js';

const KEY = exampleValue<{ data: unknown[] }>('FirstPage').data[0];

/** A client whose provider answers page `n` (from 1) with `page(n, cursorAskedWith)`; counts requests. */
function provider(page: (n: number, cursor: string | null) => { next: string | null; keys: number }) {
  let requests = 0;
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    requests += 1;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const { next, keys } = page(requests, url.searchParams.get('cursor'));
    const body = { cursor: { next }, data: Array.from({ length: keys }, () => KEY) };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const client = createBaasClient({ baseUrl: 'https://provider.test', token: 'tok', fetch, retry: false });
  return { client, requests: () => requests };
}

async function drain<T>(walk: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of walk) items.push(item);
  } catch (error) {
    return { items, error };
  }
  return { items, error: undefined };
}

const walks = {
  pixKeys: (client: ReturnType<typeof provider>['client']) => client.pixKeys(),
  exportKeys: (client: ReturnType<typeof provider>['client']) => exportKeys(client),
};

describe.each(Object.entries(walks))('%s under the page walker bounds', (_name, walk) => {
  it(`ends after ${MAX_EMPTY_PAGES} pages in a row with no key and a fresh cursor, naming the bound`, async () => {
    const { client, requests } = provider((n) => ({ next: `c${n}`, keys: 0 }));
    const { items, error } = await drain(walk(client));
    expect(items).toEqual([]);
    expect(requests()).toBe(MAX_EMPTY_PAGES);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).problems).toEqual([
      { part: 'body', pointer: '/data', rule: expect.stringContaining(`within ${MAX_EMPTY_PAGES} pages in a row`) },
    ]);
    expect((error as Error).message).toContain('MAX_EMPTY_PAGES');
  });

  it('a page with a key starts the count of empty pages again', async () => {
    // Nine empty pages, one key, nine empty pages, the end: never ten empty in a row.
    const { client, requests } = provider((n) => ({
      next: n === 20 ? null : `c${n}`,
      keys: n === 10 || n === 20 ? 1 : 0,
    }));
    const { items, error } = await drain(walk(client));
    expect(error).toBeUndefined();
    expect(items).toHaveLength(2);
    expect(requests()).toBe(20);
  });

  it(`refuses a cursor over ${CURSOR_MAX_LENGTH} characters before following it, and hands out nothing of its page`, async () => {
    const { client, requests } = provider((n) => ({ next: n === 1 ? 'a'.repeat(2_000_000) : null, keys: 1 }));
    const { items, error } = await drain(walk(client));
    expect(items).toEqual([]);
    expect(requests()).toBe(1);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as Error).message).toContain(`at most ${CURSOR_MAX_LENGTH} characters`);
    // The cursor itself is in no field of the error.
    expect(JSON.stringify(error)).not.toContain('aaaaaaaaaa');
  });

  it('a cursor of exactly the contract length is followed', async () => {
    const long = 'b'.repeat(CURSOR_MAX_LENGTH);
    const { client } = provider((n, asked) => ({
      next: n === 1 ? long : null,
      keys: asked === long || n === 1 ? 1 : 0,
    }));
    const { items, error } = await drain(walk(client));
    expect(error).toBeUndefined();
    expect(items).toHaveLength(2);
  });

  it('refuses a cursor with a character outside the contract pattern (a newline)', async () => {
    const { client, requests } = provider((n) => ({ next: n === 1 ? 'ab\ncd' : null, keys: 1 }));
    const { error } = await drain(walk(client));
    expect(error).toBeInstanceOf(BaasResponseError);
    expect(requests()).toBe(1);
  });
});

describe('the cursors a walk remembers', () => {
  // Driven by a page source of its own (a thousand pages through a client would only cost time).
  const source = (page: (n: number) => Page<number>) => {
    let n = 0;
    return async () => page(++n);
  };

  it(`catch a cursor repeated within the last ${MAX_REMEMBERED_CURSORS}, and are bounded to that many`, async () => {
    const last = MAX_REMEMBERED_CURSORS;
    // c1 … cN, then c2 again: among the last N, so caught.
    const caught = await drain(
      walkPages(
        source((n) => ({ data: [n], cursor: { next: n <= last ? `c${n}` : 'c2' } })),
        {},
      ),
    );
    expect(caught.error).toBeInstanceOf(BaasResponseError);
    expect(caught.items).toHaveLength(last);
    // c1 … cN+1, then c1: the oldest of N + 1 cursors, forgotten; what the walk keeps is bounded.
    const forgotten = await drain(
      walkPages(
        source((n) => ({ data: [n], cursor: { next: n <= last + 1 ? `c${n}` : n === last + 2 ? 'c1' : null } })),
        {},
      ),
    );
    expect(forgotten.error).toBeUndefined();
    expect(forgotten.items).toHaveLength(last + 3);
  });
});

describe('exportKeyPages', () => {
  it('never yields the page whose cursor broke a rule, so its nextCursor is never journaled', async () => {
    const { client } = provider((n) => ({ next: n === 1 ? 'ok1' : 'x'.repeat(CURSOR_MAX_LENGTH + 1), keys: 1 }));
    const cursors: Array<string | undefined> = [];
    const { error } = await drain(
      (async function* () {
        for await (const page of exportKeyPages(client)) {
          cursors.push(page.nextCursor);
          yield page;
        }
      })(),
    );
    expect(cursors).toEqual(['ok1']);
    expect(error).toBeInstanceOf(BaasResponseError);
  });

  it('resumes with `after` remembered: the provider sending it back is refused', async () => {
    const { client, requests } = provider(() => ({ next: 'start', keys: 1 }));
    const { items, error } = await drain(exportKeyPages(client, { after: 'start' }));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect(requests()).toBe(1);
  });
});
