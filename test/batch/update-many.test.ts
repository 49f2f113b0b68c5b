// updateMany against the sandbox: results in completion order with each index once, the input pulled
// lazily, bad items answered without a request, the signal's graceful stop, nothing secret shown.
import { format, inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BatchProgress,
  createBaasClient,
  type UpdateItem,
  updateMany,
  BaasValidationError,
} from '../../src/index.js';
import { BASE_URL, heldFetch, sandboxClient, settle } from './support.js';

const collect = async <T>(iterable: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const value of iterable) all.push(value);
  return all;
};

describe('updateMany', () => {
  it('updates every customer and yields each index once', async () => {
    const { sandbox, client, items } = sandboxClient();
    const results = await collect(updateMany(client, items, { concurrency: 5 }));
    expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual(items.map((_, i) => i));
    expect(results.every((r) => r.ok)).toBe(true);
    // The sandbox holds the new e-mail of each customer.
    const state = sandbox.snapshot() as { clients: Array<{ accounts: Array<{ data: { email: string } }> }> };
    expect(state.clients[0]!.accounts.map((a) => a.data.email)).toEqual(items.map((item) => item.body.email));
  });

  it('yields in completion order, with the index and item of each', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const run = updateMany(client, items.slice(0, 3), { concurrency: 3 });
    const first = run.next();
    await held.waitForHeld(3);
    // The last item's answer comes first, then the first's, then the second's.
    for (const position of [2, 0, 1]) held.held[position]!.release();
    const order = [(await first).value!, (await run.next()).value!, (await run.next()).value!];
    expect(order.map((r) => r.index)).toEqual([2, 0, 1]);
    expect(order.map((r) => r.item)).toEqual([items[2], items[0], items[1]]);
    expect((await run.next()).done).toBe(true);
  });

  // fast-check itself, not @fast-check/vitest's test.prop: importing that walks every chain of vitest's
  // test (skip, only, concurrent, …) and was 3 s of CPU in each worker that loaded it.
  it('whatever order the answers come in, each index comes out once (fast-check, fixed seed)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), async (picks) => {
        const { sandbox, items, token } = sandboxClient({ accountsPerClient: picks.length });
        const held = heldFetch(sandbox.fetch);
        const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
        const run = updateMany(client, items, { concurrency: 4 });
        const results = collect(run);
        // Release the held requests in the order the picks choose, until all are answered.
        for (let released = 0, turn = 0; released < items.length; turn += 1) {
          while (held.held.length === 0) await settle();
          const [request] = held.held.splice(picks[turn % picks.length]! % held.held.length, 1);
          request!.release();
          released += 1;
        }
        const indexes = (await results).map((r) => r.index);
        expect(indexes.sort((a, b) => a - b)).toEqual(items.map((_, i) => i));
      }),
      { numRuns: 25, seed: 22 },
    );
  });

  it('pulls the input lazily: never more than the concurrency and one ahead', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    let pulled = 0;
    async function* input(): AsyncGenerator<UpdateItem> {
      // Long enough to show any eager pull, short enough that such a pull ends.
      for (let i = 0; i < 200; i += 1) {
        pulled += 1;
        yield items[i % items.length]!;
      }
    }
    const run = updateMany(client, input(), { concurrency: 4 });
    const first = run.next();
    await held.waitForHeld(4);
    await settle();
    expect(pulled).toBeLessThanOrEqual(5);
    // Answer a few: each answer lets one more item in, no more.
    for (let round = 0; round < 3; round += 1) {
      held.held.shift()!.release();
      await held.waitForHeld(4);
      await settle();
    }
    await first;
    expect(pulled).toBeLessThanOrEqual(4 + 3 + 1);
    expect(held.maxInFlight).toBe(4);
    await run.return();
  });

  it('answers a bad item with a BaasValidationError and sends nothing for it', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const bad = { ...items[1]!, documentNumber: '12345678900' };
    const run = updateMany(client, [items[0]!, bad, items[2]!], { concurrency: 3 });
    const results = collect(run);
    await held.waitForHeld(2);
    for (const request of held.held) request.release();
    const byIndex = new Map((await results).map((r) => [r.index, r]));
    const failure = byIndex.get(1)!;
    expect(failure.ok).toBe(false);
    expect(!failure.ok && failure.error).toBeInstanceOf(BaasValidationError);
    expect(!failure.ok && failure.error.kind).toBe('validation');
    expect(held.sent).toBe(2);
    expect(held.held.map((r) => r.url.searchParams.get('DocumentNumber'))).not.toContain(bad.documentNumber);
    expect(run.progress()).toMatchObject({ requests: 2, ok: 2, failed: 1 });
  });

  it('a malformed item (null, missing fields) is a BaasValidationError too, not a crash', async () => {
    const { client, items } = sandboxClient();
    const results = await collect(updateMany(client, [null, {}, items[0]] as unknown as UpdateItem[]));
    const failed = results.filter((r) => !r.ok).map((r) => r.index);
    expect(failed.sort()).toEqual([0, 1]);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.error instanceof BaasValidationError)).toBe(true);
  });

  it('shows no CPF and no token in a result, as JSON or through util.inspect (showHidden too) or %o', async () => {
    const { client, items, token } = sandboxClient({ faults: [{ operation: 'updateNaturalPerson', status: 404 }] });
    const bad = { ...items[1]!, body: {} };
    const results = await collect(updateMany(client, [items[0]!, bad, items[2]!], { retry: false }));
    expect(results.some((r) => !r.ok && r.error instanceof BaasValidationError)).toBe(true);
    for (const result of results) {
      for (const shown of [
        JSON.stringify(result),
        inspect(result, { depth: 10 }),
        // Issue 34: showHidden and console.log('%o') show what is not enumerable; the item is not there either.
        inspect(result, { depth: 10, showHidden: true }),
        format('%o', result),
        JSON.stringify({ ...result }),
        String(!result.ok && result.error),
      ]) {
        for (const item of items.slice(0, 3)) expect(shown).not.toContain(item.documentNumber);
        expect(shown).not.toContain(token);
      }
      // The item is still there for the caller.
      expect(result.item.documentNumber).toBe(items[result.index]!.documentNumber);
    }
  });

  it('stops pulling when the signal aborts; requests on the wire finish and yield their results', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    let pulled = 0;
    function* input(): Generator<UpdateItem> {
      for (const item of items) {
        pulled += 1;
        yield item;
      }
    }
    const controller = new AbortController();
    const run = updateMany(client, input(), { concurrency: 3, signal: controller.signal });
    const results = collect(run);
    await held.waitForHeld(3);
    controller.abort();
    await settle();
    const pulledAtAbort = pulled;
    for (const request of held.held) request.release();
    const done = await results;
    expect(done.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    expect(done.every((r) => r.ok)).toBe(true);
    expect(pulled).toBe(pulledAtAbort);
    expect(held.sent).toBe(3);
  });

  it('the item pulled ahead and waiting for a slot is dropped on abort: never started, never sent', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    let pulled = 0;
    function* input(): Generator<UpdateItem> {
      for (const item of items) {
        pulled += 1;
        yield item;
      }
    }
    const controller = new AbortController();
    const run = updateMany(client, input(), { concurrency: 2, signal: controller.signal });
    const results = collect(run);
    await held.waitForHeld(2);
    // Time for the pump to pull the next item and queue it for a slot.
    await settle();
    expect(pulled).toBeLessThanOrEqual(3);
    controller.abort();
    for (const request of held.held) request.release();
    expect((await results).map((r) => r.index).sort()).toEqual([0, 1]);
    expect(run.progress()).toMatchObject({ started: 2, done: 2, stopped: 0, inFlight: 0 });
    expect(held.sent).toBe(2);
  });

  it("with inFlight: 'abort', the abort cuts the requests on the wire and yields nothing for them", async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const controller = new AbortController();
    const run = updateMany(client, items, { concurrency: 3, signal: controller.signal, inFlight: 'abort' });
    const results = collect(run);
    await held.waitForHeld(3);
    controller.abort();
    expect(await results).toEqual([]);
    expect(run.progress()).toMatchObject({ started: 3, stopped: 3, done: 0 });
  });

  it('reports progress after each result; a throwing onProgress stops nothing', async () => {
    const { client, items } = sandboxClient();
    const seen: BatchProgress[] = [];
    const onProgress = (progress: BatchProgress) => {
      seen.push(progress);
      throw new Error('a broken progress bar');
    };
    const results = await collect(updateMany(client, items.slice(0, 6), { concurrency: 2, onProgress }));
    expect(results).toHaveLength(6);
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.at(-1)).toMatchObject({ started: 6, ok: 6, failed: 0, inFlight: 0, requests: 6, concurrency: 2 });
  });

  it('ends with the input’s own error after the requests on the wire yield their results', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const broken = new Error('the input file could not be read');
    async function* input(): AsyncGenerator<UpdateItem> {
      yield items[0]!;
      yield items[1]!;
      // Both requests are on the wire when the input fails.
      await held.waitForHeld(2);
      throw broken;
    }
    const results: number[] = [];
    const consumed = (async () => {
      for await (const result of updateMany(client, input(), { concurrency: 4 })) results.push(result.index);
    })();
    await held.waitForHeld(2);
    await settle();
    for (const request of held.held) request.release();
    await expect(consumed).rejects.toBe(broken);
    expect(results.sort()).toEqual([0, 1]);
    expect(held.sent).toBe(2);
  });

  it('ends with a limiter’s own failure (not an abort), sending nothing more', async () => {
    const { client, items } = sandboxClient();
    const down = new Error('the shared limiter is unreachable');
    const limiter = { take: async () => Promise.reject(down) };
    const run = updateMany(client, items, { limiter });
    await expect(collect(run)).rejects.toBe(down);
    expect(run.progress().requests).toBe(0);
  });
});
