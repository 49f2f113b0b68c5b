// The wall clock under a test's control: Date alone is faked, so timers, fetch and servers keep
// running in real time while the code under test reads the time the test sets.
import { afterEach, vi } from 'vitest';

export interface TestClock {
  set(ms: number): void;
  advance(ms: number): void;
}

// Installed again at each move, so a clock made outside a test (in a describe) still works after
// the afterEach below has restored the real one.
const setDate = (ms: number): void => {
  vi.useFakeTimers({ toFake: ['Date'], now: ms });
};

export function fakeClock(startMs: number): TestClock {
  setDate(startMs);
  return {
    set: setDate,
    advance: (ms) => setDate(Date.now() + ms),
  };
}

afterEach(() => {
  vi.useRealTimers();
});
