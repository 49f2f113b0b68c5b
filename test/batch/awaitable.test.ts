// updateMany and exportKeys return runs you can await (the summary, once every item is done) and
// iterate (each result as it completes), like openai-node's PagePromise; a plain `for` is a TypeError
// that says what to write; peakConcurrency is how many items actually ran at once.
import { describe, expect, it } from 'vitest';
import { exportKeyPages } from '../../src/batch/export-keys.js';
import { createBaasClient, exportKeys, updateMany, BaasValidationError } from '../../src/index.js';
import { BASE_URL, heldFetch, manyItems, sandboxClient, settle, until } from './support.js';

/** A client of a fresh sandbox whose requests are counted (`sent()`). */
function countingClient() {
  const { sandbox, items, token } = sandboxClient();
  let count = 0;
  const client = createBaasClient({
    baseUrl: BASE_URL,
    token,
    fetch: (input, init) => {
      count += 1;
      return sandbox.fetch(input as string, init);
    },
  });
  return { client, items, sent: () => count };
}

describe('await updateMany(...)', () => {
  it('sends every item and resolves with the summary, failures listed', async () => {
    const { client, items, sent } = countingClient();
    const input = [...items.slice(0, 19), { ...items[19]!, documentNumber: '123' }];
    const summary = await updateMany(client, input, { concurrency: 4 });
    expect(sent()).toBe(19);
    expect(summary).toMatchObject({ started: 20, done: 20, ok: 19, failed: 1, requests: 19, inFlight: 0 });
    expect(summary.failures).toHaveLength(1);
    expect(summary.failures[0]).toMatchObject({ ok: false, index: 19 });
    expect(summary.failures[0]!.error).toBeInstanceOf(BaasValidationError);
    expect(summary.failures[0]!.item).toBe(input[19]);
  });

  it('keeps the first 100 failures and counts them all', async () => {
    const { client, items } = sandboxClient();
    const bad = Array.from({ length: 130 }, () => ({ ...items[0]!, documentNumber: '1' }));
    const summary = await updateMany(client, bad, { concurrency: 8 });
    expect(summary.failed).toBe(130);
    expect(summary.failures).toHaveLength(100);
  });

  it('still yields each result with for await, and gives the summary when awaited after the loop', async () => {
    const { client, items } = sandboxClient();
    const run = updateMany(client, items.slice(0, 10), { concurrency: 3 });
    const indexes: number[] = [];
    for await (const result of run) indexes.push(result.index);
    expect(indexes.sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    const summary = await run;
    expect(summary).toMatchObject({ done: 10, ok: 10, failed: 0 });
  });

  it('works with .then, .catch, .finally and Promise.all', async () => {
    const { client, items } = sandboxClient();
    const [a, b] = await Promise.all([updateMany(client, items.slice(0, 2)), updateMany(client, items.slice(2, 5))]);
    expect([a.ok, b.ok]).toEqual([2, 3]);
    const run = updateMany(client, items.slice(0, 1));
    expect(run).toBeInstanceOf(Promise);
    let finished = false;
    await run.finally(() => {
      finished = true;
    });
    expect(finished).toBe(true);
    expect(await run.then((summary) => summary.ok)).toBe(1);
  });

  it('rejects with the input’s own error once the items under way are done', async () => {
    const { client, items } = sandboxClient();
    const broken = new Error('the file ended in the middle of a line');
    async function* input() {
      yield items[0]!;
      yield items[1]!;
      throw broken;
    }
    const run = updateMany(client, input());
    await expect(run).rejects.toBe(broken);
    expect(run.progress()).toMatchObject({ done: 2, ok: 2 });
  });

  it('sends nothing until it is awaited or iterated', async () => {
    const { client, items, sent } = countingClient();
    const run = updateMany(client, items.slice(0, 3));
    await settle();
    expect(sent()).toBe(0);
    await run;
    expect(sent()).toBe(3);
  });

  it('refuses a plain for with a TypeError that says to use for await or await', () => {
    const { client, items } = sandboxClient();
    const run = updateMany(client, items);
    expect(() => {
      for (const _ of run as unknown as Iterable<unknown>) void _;
    }).toThrow(
      /updateMany\(\.\.\.\) is asynchronous.*`for await \(const result of updateMany\(\.\.\.\)\)`.*`await updateMany\(\.\.\.\)`/,
    );
    expect(() => [...(run as unknown as Iterable<unknown>)]).toThrow(TypeError);
  });

  it('refuses to be iterated once awaited (its results were read without being kept)', async () => {
    const { client, items } = sandboxClient();
    const run = updateMany(client, items.slice(0, 2));
    await run;
    expect(() => run[Symbol.asyncIterator]()).toThrow(/already awaited.*iterate it first/);
  });

  it('settles after a break out of the loop, with the counts of what ran', async () => {
    const { client, items } = sandboxClient();
    const run = updateMany(client, manyItems(items, 50), { concurrency: 2 });
    for await (const _result of run) break;
    const summary = await run;
    expect(summary.done).toBeGreaterThanOrEqual(1);
    expect(summary.done).toBeLessThan(50);
  });
});

describe('peakConcurrency', () => {
  it('is the most items that ran at once, not the ceiling', async () => {
    const { client, items } = sandboxClient();
    const summary = await updateMany(client, items.slice(0, 3), { concurrency: 8 });
    expect(summary.peakConcurrency).toBeLessThanOrEqual(3);
    expect(summary.peakConcurrency).toBeGreaterThanOrEqual(1);
  });

  it('equals the requests held on the wire at once', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const run = updateMany(client, items.slice(0, 12), { concurrency: 5 });
    expect(run.progress().peakConcurrency).toBe(0);
    const summary = run.then((s) => s);
    await held.waitForHeld(5);
    await settle();
    expect(run.progress().peakConcurrency).toBe(5);
    while (run.progress().done < 12) {
      await until(() => held.held.length > 0 || run.progress().done === 12);
      // One at a time: never more than five were in flight.
      held.held.shift()?.release();
      await settle();
    }
    expect((await summary).peakConcurrency).toBe(held.maxInFlight);
    expect(held.maxInFlight).toBe(5);
  });
});

describe('await exportKeys(...)', () => {
  it('walks every page and resolves with the summary; onPage hears each page', async () => {
    const { client } = sandboxClient({ accountsPerClient: 10, keysPerAccount: 3 });
    const seen: number[] = [];
    const summary = await exportKeys(client, { limit: 7, onPage: (page) => seen.push(page.keys.length) });
    expect(summary).toEqual({ pages: 5, keys: 30, complete: true, after: undefined });
    expect(seen).toEqual([7, 7, 7, 7, 2]);
  });

  it('after a stop, gives the cursor that resumes it', async () => {
    const { client } = sandboxClient({ accountsPerClient: 10, keysPerAccount: 3 });
    const controller = new AbortController();
    let cursor: string | undefined;
    const summary = await exportKeys(client, {
      limit: 7,
      signal: controller.signal,
      onPage: (page) => {
        cursor = page.nextCursor;
        controller.abort();
      },
    });
    expect(summary).toEqual({ pages: 1, keys: 7, complete: false, after: cursor });
    const rest = await exportKeys(client, { limit: 7, after: summary.after });
    expect(rest).toMatchObject({ keys: 23, complete: true });
  });

  it('rejects with the error of a page that failed', async () => {
    const client = createBaasClient({
      baseUrl: BASE_URL,
      token: 'sandbox-token',
      fetch: async () =>
        new Response(JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403 }), {
          status: 403,
          headers: { 'content-type': 'application/problem+json' },
        }),
    });
    await expect(exportKeys(client)).rejects.toMatchObject({ status: 403 });
  });

  it('still yields each key with for await, and the pages of exportKeyPages', async () => {
    const { client } = sandboxClient({ accountsPerClient: 4, keysPerAccount: 2 });
    const run = exportKeys(client, { limit: 3 });
    let keys = 0;
    for await (const _key of run) keys += 1;
    expect(keys).toBe(8);
    expect(await run).toEqual({ pages: 3, keys: 8, complete: true, after: undefined });
    const pages = exportKeyPages(client, { limit: 3 });
    const sizes: number[] = [];
    for await (const page of pages) sizes.push(page.keys.length);
    expect(sizes).toEqual([3, 3, 2]);
    expect(await pages).toMatchObject({ pages: 3, keys: 8 });
  });

  it('refuses a plain for with a TypeError that says what to write', () => {
    const { client } = sandboxClient();
    expect(() => {
      for (const _ of exportKeys(client) as unknown as Iterable<unknown>) void _;
    }).toThrow(/exportKeys\(\.\.\.\) is asynchronous.*for await.*await exportKeys/);
  });
});
