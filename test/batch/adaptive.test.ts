// Adaptive concurrency, seen from the wire: a 429 or 503 halves what is in flight, good answers bring
// it back to the ceiling; each answer's Retry-After (0 here) is waited and the item retried.
import { describe, expect, it } from 'vitest';
import { createBaasClient, updateMany } from '../../src/index.js';
import { BASE_URL, heldFetch, manyItems, overloaded, sandboxClient, success, until } from './support.js';

const collect = async <T>(iterable: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const value of iterable) all.push(value);
  return all;
};

describe('adaptive concurrency', () => {
  for (const status of [429, 503] as const) {
    it(`a ${status} halves the requests in flight, and good answers raise them back to the ceiling`, async () => {
      const { sandbox, items, token } = sandboxClient();
      const held = heldFetch(sandbox.fetch);
      const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
      const total = 80;
      const run = updateMany(client, manyItems(items, total), { concurrency: 8 });
      const results = collect(run);
      await held.waitForHeld(8);
      // Three overloaded answers from one round of requests lower the concurrency once: 8 → 4.
      for (let i = 0; i < 3; i += 1) held.held.shift()!.release(overloaded(status));
      await until(() => held.inFlight === 8);
      expect(run.progress()).toMatchObject({ concurrency: 4, lowestConcurrency: 4, overloaded: 3 });
      // Every other answer is good. Once the requests sent before the cut are answered, what is in
      // flight never exceeds the concurrency, which climbs back one step per round of good answers.
      const samples: Array<{ inFlight: number; concurrency: number }> = [];
      let drained = false;
      while (run.progress().done < total) {
        const { concurrency, done } = run.progress();
        drained ||= held.inFlight <= concurrency;
        if (drained) samples.push({ inFlight: held.inFlight, concurrency });
        held.held.shift()!.release(success());
        await until(() => run.progress().done > done || held.held.length > 0);
        await until(() => held.inFlight >= Math.min(run.progress().concurrency, total - run.progress().done));
      }
      expect(samples.length).toBeGreaterThan(20);
      expect(samples.every((s) => s.inFlight <= s.concurrency)).toBe(true);
      expect(Math.max(...samples.map((s) => s.inFlight))).toBe(8);
      expect(run.progress()).toMatchObject({ concurrency: 8, peakConcurrency: 8, lowestConcurrency: 4 });
      const all = await results;
      expect(all.every((r) => r.ok)).toBe(true);
      // The three overloaded items were sent again.
      expect(held.sent).toBe(total + 3);
    });
  }

  it('halves down to 1 at the lowest, never 0', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const run = updateMany(client, manyItems(items, 6), { concurrency: 2, retry: { maxAttempts: 10 } });
    const results = collect(run);
    // Each round answered 429: 2 → 1, then 1 stays 1, and the work still goes on one at a time.
    for (let round = 0; round < 4; round += 1) {
      await until(() => held.held.length > 0);
      await until(() => held.held.length >= Math.min(2, run.progress().concurrency));
      for (const request of held.held.splice(0)) request.release(overloaded(429));
    }
    expect(run.progress()).toMatchObject({ concurrency: 1, lowestConcurrency: 1 });
    let drained = false;
    while (run.progress().done < 6) {
      await until(() => held.held.length > 0);
      // Once the requests sent before the last cut are answered, one at a time, then climbing again.
      drained ||= held.inFlight === 1;
      if (drained) expect(held.inFlight).toBeLessThanOrEqual(run.progress().concurrency);
      held.held.shift()!.release(success());
      await until(() => held.held.length > 0 || run.progress().done === 6);
    }
    expect(drained).toBe(true);
    expect((await results).every((r) => r.ok)).toBe(true);
  });
});
