// The wait between attempts as the caller sees it (fake timers): the caller's abort during a
// Retry-After wait ends the call at once with the caller's reason, sends nothing more, and leaves
// no listener on the caller's signal (which may live for the whole process).
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BaasApiError, createBaasClient } from '../../src/index.js';
import { sleep } from '../../src/transport/sleep.js';

afterEach(() => vi.useRealTimers());

describe('an abort during the wait before a retry', () => {
  it("rejects with the caller's reason, sends no further attempt, and leaves nothing on the signal", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const fetch = vi.fn(async () => new Response('', { status: 503, headers: { 'retry-after': '5' } }));
    const controller = new AbortController();
    const client = createBaasClient({ baseUrl: 'https://api.example.test', token: 'wait-abort-token', fetch });
    const outcome = client.listPixKeys({ signal: controller.signal }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetch).toHaveBeenCalledTimes(1);

    const reason = new Error('shutting down');
    controller.abort(reason);
    await expect(outcome).resolves.toBe(reason);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('sleep', () => {
  it('an abort during the wait removes its listener from the signal', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(5_000, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('a wait that ends removes its listener too', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(5_000, controller.signal);
    await vi.advanceTimersByTimeAsync(5_000);
    await waiting;
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });
});

describe('a Retry-After no wait should honour', () => {
  it('ten years with maxElapsedMs Infinity: one attempt, the BaasApiError with retryAfterMs, no timer overflow', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const fetch = vi.fn(async () => new Response('', { status: 429, headers: { 'retry-after': '315360000' } }));
      const client = createBaasClient({
        baseUrl: 'https://api.example.test',
        token: 'long-wait-token',
        fetch,
        retry: { maxAttempts: 3, maxElapsedMs: Number.POSITIVE_INFINITY },
      });
      const error = await client.listPixKeys().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BaasApiError);
      expect((error as BaasApiError).status).toBe(429);
      expect((error as BaasApiError).retryAfterMs).toBe(315_360_000_000);
      expect((error as BaasApiError).attempts).toBe(1);
      expect(fetch).toHaveBeenCalledTimes(1);
      // Node emits a TimeoutOverflowWarning on a later tick: give it one.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.name)).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
