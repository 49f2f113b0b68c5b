// The package's one wait (src/transport/sleep.ts): the delays a timer can hold, from 0 to MAX_TIMER_MS.
import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS } from '../../src/transport/attempt.js';
import { isTimerMs, sleep } from '../../src/transport/sleep.js';

describe('sleep', () => {
  it('takes a wait of 0 ms and of MAX_TIMER_MS; refuses one below 0, past it, or not a number', async () => {
    expect([0, 1, MAX_TIMER_MS].map(isTimerMs)).toEqual([true, true, true]);
    expect([-1, MAX_TIMER_MS + 1, Number.NaN, '5'].map(isTimerMs)).toEqual([false, false, false, false]);
    await expect(sleep(0)).resolves.toBeUndefined();
    await expect(sleep(-1)).rejects.toThrow(RangeError);
  });

  it("ends early with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});
