// The shared-limit recipe's RequestLimiter (examples/shared-limit/limiter.ts) over rate-limiter-flexible:
// a refusal waits its msBeforeNext and tries again, a signal ends the wait with its reason and leaves
// nothing armed, a store error is not waited on, and no timer goes beyond 2^31-1 ms.
import { getEventListeners } from 'node:events';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sharedLimiter } from '../../examples/shared-limit/limiter.js';

const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A limiter whose consume() answers from a script: a number is a refusal with that msBeforeNext, an Error a store failure. */
function scripted(...answers: ('grant' | number | Error)[]) {
  const keys: string[] = [];
  const consume = vi.fn(async (key: string | number) => {
    keys.push(String(key));
    const answer = answers.shift() ?? 'grant';
    if (answer === 'grant') return new RateLimiterRes(1, 1000, 1, true);
    if (answer instanceof Error) throw answer;
    throw new RateLimiterRes(0, answer, 2, false);
  });
  return { consume, keys };
}

/** Whether the promise has settled, without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sharedLimiter', () => {
  it('takes a point of its key at once when one is left', async () => {
    const store = scripted('grant');
    await sharedLimiter(store, 'client-1').take();
    expect(store.keys).toEqual(['client-1']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refused, waits msBeforeNext and then tries again', async () => {
    const store = scripted(250, 'grant');
    const taken = sharedLimiter(store, 'client-1').take();
    expect(await settled(taken)).toBe(false);
    await vi.advanceTimersByTimeAsync(249);
    expect(store.consume).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(taken).resolves.toBeUndefined();
    expect(store.consume).toHaveBeenCalledTimes(2);
  });

  it("recognises rate-limiter-flexible's own refusal (RateLimiterMemory)", async () => {
    const limiter = sharedLimiter(new RateLimiterMemory({ points: 2, duration: 1 }), 'client-1');
    await limiter.take();
    await limiter.take();
    const third = limiter.take();
    expect(await settled(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(third).resolves.toBeUndefined();
  });

  it("an abort during the wait rejects with the signal's reason, leaving no timer and no listener", async () => {
    const store = scripted(60_000);
    const controller = new AbortController();
    const taken = sharedLimiter(store, 'client-1').take(controller.signal);
    expect(await settled(taken)).toBe(false);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(taken).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
    expect(store.consume).toHaveBeenCalledTimes(1);
  });

  it('a wait that ends leaves no listener on the signal', async () => {
    const store = scripted(10, 10, 'grant');
    const controller = new AbortController();
    const taken = sharedLimiter(store, 'client-1').take(controller.signal);
    await vi.advanceTimersByTimeAsync(20);
    await expect(taken).resolves.toBeUndefined();
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('an aborted signal rejects before any point is consumed', async () => {
    const store = scripted('grant');
    const reason = new Error('already stopped');
    await expect(sharedLimiter(store, 'client-1').take(AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(store.consume).not.toHaveBeenCalled();
  });

  it('a store error (Redis unreachable) rejects with that error at once: no wait, no retry', async () => {
    const failure = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    const store = scripted(failure);
    await expect(sharedLimiter(store, 'client-1').take()).rejects.toBe(failure);
    expect(store.consume).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never arms a timer beyond 2^31-1 ms, however long msBeforeNext is', async () => {
    const store = scripted(2 ** 40, 'grant');
    const taken = sharedLimiter(store, 'client-1').take();
    await vi.advanceTimersByTimeAsync(LONGEST_TIMER_MS - 1);
    expect(store.consume).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(taken).resolves.toBeUndefined();
    expect(store.consume).toHaveBeenCalledTimes(2);
  });
});
