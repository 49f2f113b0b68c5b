// The deadline the reliability suites race every call against: it fails a hang, and time the
// process could not run (a busy loop here, another process's load on a shared machine) does not count.
import { describe, expect, it } from 'vitest';
import { eventuallyOnTime, onTimeDeadline } from './on-time.js';
import { settleWithin } from './reliability.js';

const busyFor = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('on-time deadlines', () => {
  it('report a call that never settles as hung, once its on-time ms have passed', async () => {
    const started = performance.now();
    const outcome = await settleWithin(new Promise<never>(() => undefined), 200);
    expect(outcome.kind).toBe('hung');
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('let a call that settles keep its outcome, and leave no timer behind', async () => {
    const before = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    expect(await settleWithin(Promise.resolve(7), 200)).toMatchObject({ kind: 'data', value: 7 });
    expect(await settleWithin(Promise.reject(new Error('no')), 200)).toMatchObject({ kind: 'error' });
    expect(process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length).toBe(before);
  });

  it('do not count time the event loop was blocked', async () => {
    const deadline = onTimeDeadline(100);
    // 500 ms the loop cannot tick: on a wall clock the deadline would be long past.
    busyFor(500);
    let expired = false;
    void deadline.expired.then(() => (expired = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(expired).toBe(false);
    expect(deadline.onTimeMs).toBeLessThan(100);
    await deadline.expired;
    expect(deadline.onTimeMs).toBeGreaterThanOrEqual(100);
  });

  it('poll until the check holds, or answer false once the time is up', async () => {
    let calls = 0;
    expect(await eventuallyOnTime(() => ++calls === 3, 5_000)).toBe(true);
    expect(calls).toBe(3);
    expect(await eventuallyOnTime(() => false, 100)).toBe(false);
  });
});
