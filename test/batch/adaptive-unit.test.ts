// AdaptiveConcurrency by itself: the halving, the one cut per burst, the climb by rounds of good
// answers up to the ceiling, and the counts of good answers a cut clears.
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../src/batch/adaptive.js';

const adaptive = (ceiling: number) => {
  const changes: number[] = [];
  const concurrency = new AdaptiveConcurrency(ceiling, (value) => changes.push(value));
  return { concurrency, changes };
};

describe('AdaptiveConcurrency', () => {
  it('stays at the ceiling on good answers, and reports no change', () => {
    const { concurrency, changes } = adaptive(4);
    for (let i = 0; i < 20; i += 1) concurrency.answered();
    expect(concurrency).toMatchObject({ current: 4, lowest: 4 });
    expect(changes).toEqual([]);
  });

  it('an overload answer to a request sent before the last cut does not cut again', () => {
    const { concurrency, changes } = adaptive(8);
    const first = concurrency.send();
    const second = concurrency.send();
    concurrency.overloaded(first);
    concurrency.overloaded(second);
    expect(changes).toEqual([4]);
    // A request sent after the cut, refused too: the lowered concurrency is too high, cut again.
    concurrency.overloaded(concurrency.send());
    expect(changes).toEqual([4, 2]);
    expect(concurrency).toMatchObject({ current: 2, lowest: 2 });
  });

  it('climbs by one after a round of as many good answers as the concurrency', () => {
    const { concurrency, changes } = adaptive(8);
    concurrency.overloaded(concurrency.send());
    expect(concurrency.current).toBe(4);
    for (let i = 0; i < 3; i += 1) concurrency.answered();
    expect(concurrency.current).toBe(4);
    concurrency.answered();
    expect(concurrency.current).toBe(5);
    for (let i = 0; i < 5; i += 1) concurrency.answered();
    expect(changes).toEqual([4, 5, 6]);
  });

  it('a cut clears the good answers counted before it', () => {
    const { concurrency } = adaptive(8);
    concurrency.overloaded(concurrency.send());
    for (let i = 0; i < 3; i += 1) concurrency.answered();
    concurrency.overloaded(concurrency.send());
    expect(concurrency.current).toBe(2);
    // One good answer is half a round at 2.
    concurrency.answered();
    expect(concurrency.current).toBe(2);
    concurrency.answered();
    expect(concurrency.current).toBe(3);
  });

  it('an overload answer from before the last cut still clears the count', () => {
    const { concurrency } = adaptive(8);
    const early = concurrency.send();
    concurrency.overloaded(concurrency.send());
    for (let i = 0; i < 3; i += 1) concurrency.answered();
    concurrency.overloaded(early);
    expect(concurrency.current).toBe(4);
    concurrency.answered();
    expect(concurrency.current).toBe(4);
  });

  it('never goes below 1 nor above the ceiling', () => {
    const { concurrency, changes } = adaptive(3);
    for (let i = 0; i < 4; i += 1) concurrency.overloaded(concurrency.send());
    expect(concurrency).toMatchObject({ current: 1, lowest: 1 });
    for (let i = 0; i < 50; i += 1) concurrency.answered();
    expect(concurrency).toMatchObject({ current: 3, lowest: 1 });
    expect(changes).toEqual([1, 2, 3]);
  });
});
