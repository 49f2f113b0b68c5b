// The wall clock under a test's control: Date alone is faked, so timers, fetch and servers keep
// running in real time while the code under test reads the time the test sets.
//
// The real clock comes back when the test that moved it finishes (onTestFinished), not through an
// afterEach registered when this module loads: in the pure project's shared module graph a module
// loads once, for the first file that imports it, so such a hook ran in that file alone and every
// later file kept a faked Date (test/client/call-edges.test.ts then waited on a clock that never moved).
import { onTestFinished, vi } from 'vitest';

export interface TestClock {
  set(ms: number): void;
  advance(ms: number): void;
}

const setDate = (ms: number): void => {
  vi.useFakeTimers({ toFake: ['Date'], now: ms });
  onTestFinished(() => {
    vi.useRealTimers();
  });
};

/** A faked Date starting at `startMs`; call it inside the test that uses it. */
export function fakeClock(startMs: number): TestClock {
  setDate(startMs);
  return {
    set: setDate,
    advance: (ms) => setDate(Date.now() + ms),
  };
}
