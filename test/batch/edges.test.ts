// The edges of updateMany and exportKeys: the default retries and concurrency, what each kind of
// answer does to the adaptive concurrency, an input closed on a stop, a run stopped with results
// unread, the progress counts' rate and clock, and a page that fails after its retries.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BaasApiError, type BatchProgress, createBaasClient, type UpdateItem, updateMany } from '../../src/index.js';
import { exportKeyPages } from '../../src/batch/export-keys.js';
import { BASE_URL, heldFetch, manyItems, overloaded, sandboxClient, settle, success, until } from './support.js';

const collect = async <T>(iterable: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const value of iterable) all.push(value);
  return all;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('updateMany: retries and concurrency by default', () => {
  const always503 = () => {
    let sent = 0;
    const fetch = async () => {
      sent += 1;
      return overloaded(503);
    };
    return {
      fetch,
      get sent() {
        return sent;
      },
    };
  };

  for (const [retry, attempts] of [
    [undefined, 5],
    [false, 1],
    [{ maxAttempts: 2 }, 2],
  ] as const) {
    it(`retry: ${JSON.stringify(retry)} sends an item answered 503 ${attempts} time(s), then yields the 503`, async () => {
      const { items, token } = sandboxClient();
      const wire = always503();
      const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: wire.fetch });
      const results = await collect(updateMany(client, items.slice(0, 1), { retry }));
      expect(wire.sent).toBe(attempts);
      const result = results[0]!;
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toBeInstanceOf(BaasApiError);
      expect(!result.ok && (result.error as BaasApiError).status).toBe(503);
    });
  }

  it('sends 8 items at once when no concurrency is given', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const run = updateMany(client, items.slice(0, 12));
    const results = collect(run);
    await held.waitForHeld(8);
    await settle();
    expect(held.held).toHaveLength(8);
    expect(run.progress()).toMatchObject({ concurrency: 8, peakConcurrency: 8, started: 8 });
    while (run.progress().done < 12) {
      await until(() => held.held.length > 0);
      for (const request of held.held.splice(0)) request.release();
      await settle();
    }
    expect(await results).toHaveLength(12);
  });
});

describe('updateMany: what is retried', () => {
  it('a timeout is retried like a network failure', async () => {
    const { items, token } = sandboxClient();
    let calls = 0;
    const fetch = (_input: string | URL | Request, init?: RequestInit) => {
      calls += 1;
      // The first request never answers: the client's timeout ends it.
      if (calls === 1)
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        );
      return Promise.resolve(success());
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch, timeoutMs: 1 });
    const results = await collect(updateMany(client, items.slice(0, 1), { retry: { baseDelayMs: 0 } }));
    expect(results[0]?.ok).toBe(true);
    expect(calls).toBe(2);
  });

  it('a Retry-After longer than retry.maxRetryAfterMs is not waited: the 503 is the result', async () => {
    const { items, token } = sandboxClient();
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      return overloaded(503, { 'retry-after': '120' });
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const results = await collect(updateMany(client, items.slice(0, 1), { retry: { maxRetryAfterMs: 60_000 } }));
    expect(calls).toBe(1);
    expect(results[0]?.ok).toBe(false);
  });

  it('an error that is not the package’s, thrown by the client, ends the loop with it', async () => {
    const { items } = sandboxClient();
    const odd = new TypeError('not a BaasError');
    const client = {
      updateNaturalPerson: async () => {
        throw odd;
      },
    };
    const run = updateMany(client, items.slice(0, 3), { concurrency: 1 });
    await expect(collect(run)).rejects.toBe(odd);
    expect(run.progress()).toMatchObject({ requests: 0, stopped: 0 });
  });
});

describe('updateMany: adaptive concurrency and each kind of answer', () => {
  it('a network failure after a cut does not count as a good answer', async () => {
    const { items, token } = sandboxClient();
    let calls = 0;
    let run: ReturnType<typeof updateMany> | undefined;
    const seen: number[] = [];
    const fetch = async () => {
      calls += 1;
      seen.push(run!.progress().concurrency);
      if (calls === 1) return overloaded(429);
      if (calls === 2) throw new TypeError('fetch failed');
      return success();
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    run = updateMany(client, items.slice(0, 1), { concurrency: 2, retry: { baseDelayMs: 0 } });
    const results = await collect(run);
    expect(results[0]?.ok).toBe(true);
    // 2 at the first attempt; 1 after the 429, and still 1 after the network failure.
    expect(seen).toEqual([2, 1, 1]);
    // The success, one good answer at concurrency 1, raises it back.
    expect(run.progress()).toMatchObject({ concurrency: 2, lowestConcurrency: 1, overloaded: 1, requests: 3 });
  });

  it('an item’s own error (a 404) counts as an answer: concurrency climbs back', async () => {
    const { items, token } = sandboxClient();
    let calls = 0;
    const seen: number[] = [];
    let run: ReturnType<typeof updateMany> | undefined;
    const fetch = async () => {
      calls += 1;
      seen.push(run!.progress().concurrency);
      if (calls === 1) return overloaded(503);
      return new Response(JSON.stringify({ type: 'about:blank', title: 'not found', status: 404 }), {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
      });
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    run = updateMany(client, items.slice(0, 2), { concurrency: 2 });
    const results = await collect(run);
    expect(results.map((r) => r.ok)).toEqual([false, false]);
    expect(run.progress()).toMatchObject({ concurrency: 2, lowestConcurrency: 1, overloaded: 1, failed: 2 });
  });
});

describe('updateMany: stopping', () => {
  it('an already aborted signal pulls nothing and sends nothing', async () => {
    const { client, items } = sandboxClient();
    let pulled = 0;
    function* input(): Generator<UpdateItem> {
      for (const item of items) {
        pulled += 1;
        yield item;
      }
    }
    const run = updateMany(client, input(), { signal: AbortSignal.abort() });
    expect(await collect(run)).toEqual([]);
    expect(pulled).toBe(0);
    expect(run.progress()).toMatchObject({ started: 0, requests: 0 });
  });

  it('closes the input when it stops before the input ends', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    let closed = false;
    function* input(): Generator<UpdateItem> {
      try {
        yield* items;
      } finally {
        closed = true;
      }
    }
    const controller = new AbortController();
    const run = updateMany(client, input(), { concurrency: 2, signal: controller.signal });
    const results = collect(run);
    await held.waitForHeld(2);
    controller.abort();
    for (const request of held.held) request.release();
    expect(await results).toHaveLength(2);
    expect(closed).toBe(true);
  });

  it('an item waiting to retry when the signal aborts yields its last error and is not sent again', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const controller = new AbortController();
    const run = updateMany(client, items.slice(0, 1), { signal: controller.signal });
    const results = collect(run);
    await held.waitForHeld(1);
    controller.abort();
    held.held[0]!.release(overloaded(503, { 'retry-after': '20' }));
    const result = (await results)[0]!;
    expect(!result.ok && (result.error as BaasApiError).status).toBe(503);
    expect(held.sent).toBe(1);
  });

  it('return() drops the results not yet read: the next call is done', async () => {
    const { client, items } = sandboxClient();
    const run = updateMany(client, items.slice(0, 6), { concurrency: 3 });
    await run.next();
    // Time for the other requests to be answered and their results to wait unread.
    await until(() => run.progress().done >= 3);
    await run.return();
    expect(await run.next()).toEqual({ value: undefined, done: true });
  });

  it("with inFlight: 'abort', onProgress hears the stopped items", async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const controller = new AbortController();
    const seen: BatchProgress[] = [];
    const run = updateMany(client, items, {
      concurrency: 2,
      signal: controller.signal,
      inFlight: 'abort',
      onProgress: (progress) => seen.push(progress),
    });
    const results = collect(run);
    await held.waitForHeld(2);
    controller.abort();
    expect(await results).toEqual([]);
    expect(seen.map((p) => p.stopped)).toEqual([1, 2]);
  });
});

describe('updateMany: stopping while the input is read', () => {
  it('an item pulled as the signal aborts is dropped: never started', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const controller = new AbortController();
    async function* input(): AsyncGenerator<UpdateItem> {
      yield items[0]!;
      // The caller stops while the next item is being read.
      controller.abort();
      yield items[1]!;
    }
    const run = updateMany(client, input(), { concurrency: 2, signal: controller.signal });
    const results = collect(run);
    await held.waitForHeld(1);
    await settle();
    held.held[0]!.release();
    expect((await results).map((r) => r.index)).toEqual([0]);
    expect(run.progress()).toMatchObject({ started: 1, stopped: 0, done: 1 });
    expect(held.sent).toBe(1);
  });

  it('an abort while unread results fill the room pulls nothing more', async () => {
    const { client, items } = sandboxClient();
    let pulled = 0;
    function* input(): Generator<UpdateItem> {
      for (const item of items) {
        pulled += 1;
        yield item;
      }
    }
    const controller = new AbortController();
    const run = updateMany(client, input(), { concurrency: 1, signal: controller.signal });
    await run.next();
    await until(() => run.progress().done >= 2);
    for (let turn = 0; turn < 20; turn += 1) await settle();
    const pulledAtAbort = pulled;
    controller.abort();
    for (let turn = 0; turn < 20; turn += 1) await settle();
    expect(pulled).toBe(pulledAtAbort);
    await run.return();
  });

  it('an input that fails as it is closed ends the loop with that error, once', async () => {
    const { sandbox, items, token } = sandboxClient();
    const held = heldFetch(sandbox.fetch);
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: held.fetch });
    const broken = new Error('the input file could not be closed');
    function* input(): Generator<UpdateItem> {
      try {
        yield* items;
      } finally {
        // biome-ignore lint/correctness/noUnsafeFinally: an input whose closing fails
        throw broken;
      }
    }
    const controller = new AbortController();
    const run = updateMany(client, input(), { concurrency: 1, signal: controller.signal });
    const results: number[] = [];
    const consumed = (async () => {
      for await (const result of { [Symbol.asyncIterator]: () => run }) results.push(result.index);
    })();
    await held.waitForHeld(1);
    controller.abort();
    held.held[0]!.release();
    await expect(consumed).rejects.toBe(broken);
    expect(results).toEqual([0]);
    // The error is thrown once: the run is then done.
    expect(await run.next()).toEqual({ value: undefined, done: true });
  });

  it('return() aborts the signal a waiting limiter holds, with an AbortError', async () => {
    const { client, items } = sandboxClient();
    const reasons: unknown[] = [];
    const limiter = {
      take: (signal?: AbortSignal) =>
        new Promise<void>((_resolve, reject) =>
          signal?.addEventListener('abort', () => {
            reasons.push(signal.reason);
            reject(signal.reason);
          }),
        ),
    };
    const run = updateMany(client, items.slice(0, 2), { concurrency: 1, limiter });
    const first = run.next();
    await until(() => run.progress().started === 1);
    await run.return();
    expect(await first).toEqual({ value: undefined, done: true });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toBeInstanceOf(DOMException);
    expect((reasons[0] as DOMException).name).toBe('AbortError');
  });
});

describe('updateMany: progress counts', () => {
  it('the rate is requests per second since the first answer; elapsedMs counts from the start', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { items, token } = sandboxClient();
    // Each request takes a virtual second.
    const fetch = async () => {
      vi.setSystemTime(Date.now() + 1000);
      return success();
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const run = updateMany(client, items.slice(0, 3), { concurrency: 1 });
    expect(run.progress()).toMatchObject({ rate: 0, requests: 0, elapsedMs: 0 });
    const seen: BatchProgress[] = [];
    for await (const _ of run) seen.push(run.progress());
    // The first answer at 1 s (no time since it yet), the third at 3 s: 3 requests in 2 seconds.
    expect(seen.map((p) => p.rate)).toEqual([0, 2, 1.5]);
    expect(seen.map((p) => p.elapsedMs)).toEqual([1000, 2000, 3000]);
  });
});

describe('updateMany: pacing edges', () => {
  for (const policy of ['"default";q=0;w=1', '"default";q=5;w=0']) {
    it(`a 429 stating ${policy} states no limit: nothing is paced by it`, async () => {
      const { items, token } = sandboxClient();
      let calls = 0;
      const fetch = async () => {
        calls += 1;
        return calls === 1
          ? overloaded(429, { ratelimit: '"default";r=0;t=1', 'ratelimit-policy': policy })
          : success();
      };
      const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
      const run = updateMany(client, items.slice(0, 3), { concurrency: 1 });
      const results = await collect(run);
      expect(results.every((r) => r.ok)).toBe(true);
      expect(run.progress().discoveredLimit).toBeUndefined();
      expect(calls).toBe(4);
    });
  }

  it('a signal aborted while the limiter gives its turn sends nothing', async () => {
    const { items, token } = sandboxClient();
    let sent = 0;
    const fetch = async () => {
      sent += 1;
      return success();
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const controller = new AbortController();
    // The turn is given, but the caller stopped meanwhile.
    const limiter = { take: async () => controller.abort() };
    const run = updateMany(client, items.slice(0, 3), { concurrency: 1, limiter, signal: controller.signal });
    expect(await collect(run)).toEqual([]);
    expect(sent).toBe(0);
    expect(run.progress()).toMatchObject({ stopped: 1, requests: 0 });
  });
});

describe('exportKeyPages: failures', () => {
  it('a page that fails after its retries ends the walk with its BaasApiError', async () => {
    const { sandbox, token } = sandboxClient({ accountsPerClient: 10, keysPerAccount: 2 });
    let calls = 0;
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      calls += 1;
      return calls === 1 ? sandbox.fetch(input as string, init) : Promise.resolve(overloaded(503));
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    const pages: unknown[] = [];
    const walk = (async () => {
      for await (const page of exportKeyPages(client, { limit: 5, retry: { maxAttempts: 2 } })) pages.push(page);
    })();
    await expect(walk).rejects.toBeInstanceOf(BaasApiError);
    await expect(walk).rejects.toMatchObject({ status: 503 });
    expect(pages).toHaveLength(1);
    expect(calls).toBe(3);
  });

  it("paces the pages to the limit a 429's RateLimit-Policy states", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { sandbox, token } = sandboxClient({ accountsPerClient: 10, keysPerAccount: 2 });
    const sentAt: number[] = [];
    const fields = { ratelimit: '"default";r=0;t=1', 'ratelimit-policy': '"default";q=1;w=2' };
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      sentAt.push(Date.now());
      // The first page is refused twice with the same policy: the second says nothing new.
      return sentAt.length <= 2 ? Promise.resolve(overloaded(429, fields)) : sandbox.fetch(input as string, init);
    };
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
    let finished = false;
    const walk = collect(exportKeyPages(client, { limit: 5 })).finally(() => {
      finished = true;
    });
    while (!finished) await vi.advanceTimersByTimeAsync(100);
    expect(await walk).toHaveLength(4);
    // One request every 2 virtual seconds once the policy is known.
    const gaps = sentAt.slice(2).map((at, i) => at - sentAt[i + 1]!);
    expect(gaps).toHaveLength(4);
    expect(gaps.every((gap) => gap >= 2000)).toBe(true);
  });
});

describe('updateMany: results not yet read', () => {
  it('holds at most `concurrency` unread results before pulling more', async () => {
    const { client, items } = sandboxClient();
    let pulled = 0;
    function* input(): Generator<UpdateItem> {
      for (const item of manyItems(items, 20)) {
        pulled += 1;
        yield item;
      }
    }
    const run = updateMany(client, input(), { concurrency: 2 });
    await run.next();
    await until(() => run.progress().done >= 3);
    for (let turn = 0; turn < 50; turn += 1) await settle();
    // One result read, two waiting, two in flight (their answers wait too), one pulled ahead.
    expect(run.progress().done).toBeLessThanOrEqual(5);
    expect(pulled).toBeLessThanOrEqual(6);
    await run.return();
  });
});
