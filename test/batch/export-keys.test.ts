// exportKeys and exportKeyPages against the sandbox: every key exactly once, in pages that carry
// their cursors, resumed from a page's nextCursor without a repeat; paced like updateMany.
import { describe, expect, it, vi } from 'vitest';
import { exportKeyPages } from '../../src/batch/export-keys.js';
import { createBaasClient, exportKeys, type RequestLimiter } from '../../src/index.js';
import { BASE_URL, overloaded, sandboxClient } from './support.js';

const collect = async <T>(iterable: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const value of iterable) all.push(value);
  return all;
};

const seededIds = (sandbox: ReturnType<typeof sandboxClient>['sandbox']) =>
  (
    sandbox.snapshot() as { clients: Array<{ accounts: Array<{ keys: Array<{ id: string }> }> }> }
  ).clients[0]!.accounts.flatMap((account) => account.keys.map((key) => key.id)).sort();

describe('exportKeys', () => {
  it("yields every key of the sandbox's account exactly once", async () => {
    const { sandbox, client } = sandboxClient({ accountsPerClient: 30, keysPerAccount: 4 });
    const ids = (await collect(exportKeys(client, { limit: 7 }))).map((key) => key.id);
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(seededIds(sandbox));
  });

  it('resumes from a page’s nextCursor (`after`) with no key read twice and none missed', async () => {
    const { sandbox, client } = sandboxClient({ accountsPerClient: 30, keysPerAccount: 4 });
    const firstPages: string[][] = [];
    let resumeAt: string | undefined;
    for await (const page of exportKeyPages(client, { limit: 25 })) {
      firstPages.push(page.keys.map((key) => key.id));
      resumeAt = page.nextCursor;
      // Stopped (a crash, Ctrl-C) after the second page was written.
      if (firstPages.length === 2) break;
    }
    expect(resumeAt).toBeTypeOf('string');
    const rest = await collect(exportKeyPages(client, { limit: 25, after: resumeAt }));
    expect(rest[0]!.cursor).toBe(resumeAt);
    expect(rest.at(-1)!.nextCursor).toBeUndefined();
    const ids = [...firstPages.flat(), ...rest.flatMap((page) => page.keys.map((key) => key.id))];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(seededIds(sandbox));
    // exportKeys resumes the same way.
    const keys = await collect(exportKeys(client, { limit: 25, after: resumeAt }));
    expect(keys.map((key) => key.id)).toEqual(rest.flatMap((page) => page.keys.map((key) => key.id)));
  });

  it('onPage hears each page once all its keys were pulled; its nextCursor resumes the export', async () => {
    const { sandbox, client } = sandboxClient({ accountsPerClient: 30, keysPerAccount: 4 });
    const handled: string[] = [];
    let resumeAt: string | undefined;
    const heard: number[] = [];
    const onPage = (page: { keys: unknown[]; nextCursor: string | undefined }) => {
      heard.push(handled.length);
      resumeAt = page.nextCursor;
    };
    for await (const key of exportKeys(client, { limit: 25, onPage })) {
      // Stopped in the middle of the third page: its keys were read, but the page was not finished.
      if (handled.length === 60) break;
      handled.push(key.id);
    }
    // Heard after the 25th and the 50th key, never for the page left half-read.
    expect(heard).toEqual([25, 50]);
    const rest = (await collect(exportKeys(client, { limit: 25, after: resumeAt }))).map((key) => key.id);
    const ids = [...handled.slice(0, 50), ...rest];
    expect(new Set(ids).size).toBe(120);
    expect(ids.sort()).toEqual(seededIds(sandbox));
  });

  it('refuses an onPage that is not a function, naming it', () => {
    const { client } = sandboxClient({ accountsPerClient: 1, keysPerAccount: 1 });
    expect(() => exportKeys(client, { onPage: 'x' as never })).toThrow(/onPage/);
  });

  it('asks the limiter before each page, retries included, and honours Retry-After', async () => {
    const { sandbox, token } = sandboxClient({ accountsPerClient: 10, keysPerAccount: 2 });
    let calls = 0;
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      calls += 1;
      return calls === 2 ? Promise.resolve(overloaded(429)) : sandbox.fetch(input as string, init);
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const take = vi.fn<RequestLimiter['take']>(async () => undefined);
    const keys = await collect(exportKeys(client, { limit: 5, limiter: { take } }));
    expect(keys).toHaveLength(20);
    // Four pages and one retry.
    expect(calls).toBe(5);
    expect(take).toHaveBeenCalledTimes(5);
  });

  it('ends quietly when the signal aborts while a page waits for its retry', async () => {
    const { sandbox, token } = sandboxClient({ accountsPerClient: 10, keysPerAccount: 2 });
    const controller = new AbortController();
    let calls = 0;
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      calls += 1;
      if (calls === 1) return sandbox.fetch(input as string, init);
      // The second page is refused with a long Retry-After, and the caller gives up meanwhile.
      setImmediate(() => controller.abort());
      return Promise.resolve(overloaded(503, { 'retry-after': '20' }));
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const pages = await collect(exportKeyPages(client, { limit: 5, signal: controller.signal }));
    expect(pages).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('ends quietly before the next page once the signal aborts', async () => {
    const { client } = sandboxClient({ accountsPerClient: 10, keysPerAccount: 2 });
    const controller = new AbortController();
    const pages = [];
    for await (const page of exportKeyPages(client, { limit: 5, signal: controller.signal })) {
      pages.push(page);
      controller.abort();
    }
    expect(pages).toHaveLength(1);
  });
});
