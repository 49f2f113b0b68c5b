// Pacing: a limiter is asked once per request, retries included; `rate` and a limit the provider's
// RateLimit-Policy states are never exceeded in any virtual second (vitest's fake clock).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBaasClient, type RequestLimiter, updateMany } from '../../src/index.js';
import { BASE_URL, manyItems, overloaded, sandboxClient, success } from './support.js';

const collect = async <T>(iterable: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const value of iterable) all.push(value);
  return all;
};

/** Runs `work` to its end on the fake clock, a virtual 50 ms at a time. */
async function onFakeClock<T>(work: Promise<T>): Promise<T> {
  let finished = false;
  const done = work.finally(() => {
    finished = true;
  });
  while (!finished) await vi.advanceTimersByTimeAsync(50);
  return done;
}

const perSecond = (times: number[]) => {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / 1000), (counts.get(Math.floor(t / 1000)) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([, n]) => n);
};

afterEach(() => {
  vi.useRealTimers();
});

describe('pacing', () => {
  it('asks the limiter once for every request, retries included', async () => {
    const { items, token } = sandboxClient();
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      // The first two requests are answered 503 (Retry-After: 0) and retried.
      return calls <= 2 ? overloaded(503) : success();
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    let takes = 0;
    const limiter: RequestLimiter = {
      async take() {
        takes += 1;
      },
    };
    const results = await collect(updateMany(client, manyItems(items, 10), { limiter, concurrency: 3 }));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(calls).toBe(12);
    expect(takes).toBe(calls);
  });

  it('gives the limiter the signal, and its rejection on abort stops the batch quietly', async () => {
    const { client, items } = sandboxClient();
    const controller = new AbortController();
    const signals: Array<AbortSignal | undefined> = [];
    const limiter: RequestLimiter = {
      take(signal) {
        signals.push(signal);
        // A shared limiter with no token left: waits until the abort.
        return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
      },
    };
    const run = updateMany(client, items, { limiter, concurrency: 2, signal: controller.signal });
    const results = collect(run);
    await vi.waitUntil(() => signals.length === 2);
    controller.abort();
    expect(await results).toEqual([]);
    expect(signals.every((signal) => signal instanceof AbortSignal)).toBe(true);
    expect(run.progress()).toMatchObject({ requests: 0, stopped: 2 });
  });

  it('keeps every virtual second under `rate`', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { sandbox, items, token } = sandboxClient();
    const sentAt: number[] = [];
    const start = Date.now();
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      sentAt.push(Date.now() - start);
      return sandbox.fetch(input as string, init);
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const results = await onFakeClock(collect(updateMany(client, manyItems(items, 23), { rate: 5, concurrency: 8 })));
    expect(results.every((r) => r.ok)).toBe(true);
    const seconds = perSecond(sentAt);
    expect(Math.max(...seconds)).toBeLessThanOrEqual(5);
    // And no slower than asked: 23 requests at 5 a second take 5 seconds.
    expect(seconds).toEqual([5, 5, 5, 5, 3]);
  });

  it("paces to the limit the provider's RateLimit-Policy states, with no rate given", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { items, token } = sandboxClient();
    const sentAt: number[] = [];
    const start = Date.now();
    const fetch = async () => {
      sentAt.push(Date.now() - start);
      return success({ ratelimit: '"default";r=3;t=1', 'ratelimit-policy': '"default";q=4;w=1' });
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const run = updateMany(client, manyItems(items, 30), { concurrency: 8 });
    const results = await onFakeClock(collect(run));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(run.progress().discoveredLimit).toBe(4);
    // Before the first answer, a round of `concurrency` requests went unpaced; from then on, 4 a second.
    const seconds = perSecond(sentAt);
    expect(seconds[0]).toBeLessThanOrEqual(8 + 4);
    expect(Math.max(...seconds.slice(1))).toBeLessThanOrEqual(4);
  });
});
