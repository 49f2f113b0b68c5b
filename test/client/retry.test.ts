// The retry decision, one function of (attempt, method, status or failure, Retry-After, elapsed time).
import { describe, expect, it, vi } from 'vitest';
import {
  backoffMs,
  DEFAULT_RETRY,
  MAX_TIMER_MS,
  parseRetryAfter,
  retrySettings,
  shouldRetry,
  type RetryQuestion,
} from '../../src/client/retry.js';
import { sleep } from '../../src/transport/sleep.js';
import { type BaasOptionError, isBaasOptionError } from '../../src/option-rules.js';

const settings = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
const ask = (question: Partial<RetryQuestion>) =>
  shouldRetry({ attempt: 1, method: 'GET', elapsedMs: 0, ...question }, settings, () => 0.5);

describe('shouldRetry', () => {
  it('retries network failures, timeouts and the retryable statuses of idempotent methods', () => {
    expect(ask({ failure: 'network' })).toBe(50);
    expect(ask({ method: 'PUT', failure: 'timeout' })).toBe(50);
    for (const status of [429, 502, 503, 504]) expect(ask({ status })).toBe(50);
  });

  it('never retries other statuses', () => {
    for (const status of [400, 401, 403, 404, 422, 500, 501]) expect(ask({ status })).toBeUndefined();
  });

  it('never retries a method that is not idempotent, unless the call carries an idempotency key', () => {
    expect(ask({ method: 'POST', failure: 'network' })).toBeUndefined();
    expect(ask({ method: 'PATCH', status: 503 })).toBeUndefined();
    expect(ask({ method: 'POST', failure: 'network', idempotencyKey: true })).toBe(50);
  });

  it("waits the server's Retry-After, and not at all past the attempt or time budget", () => {
    expect(ask({ status: 429, retryAfterMs: 2_000 })).toBe(2_000);
    expect(ask({ status: 429, retryAfterMs: 40_000 })).toBeUndefined();
    expect(ask({ failure: 'network', elapsedMs: 29_990 })).toBeUndefined();
    expect(ask({ failure: 'network', attempt: 3 })).toBeUndefined();
    expect(shouldRetry({ attempt: 1, method: 'GET', failure: 'network', elapsedMs: 0 }, false)).toBeUndefined();
  });
});

describe('shouldRetry at the edges of its budgets', () => {
  it('retries while attempts remain and stops at maxAttempts exactly', () => {
    expect(ask({ failure: 'network', attempt: 2 })).toBe(100);
    expect(ask({ failure: 'network', attempt: 3 })).toBeUndefined();
    expect(
      shouldRetry(
        { attempt: 1, method: 'GET', failure: 'network', elapsedMs: 0 },
        { ...settings, maxAttempts: 1 },
        () => 0.5,
      ),
    ).toBeUndefined();
  });

  it('allows a wait that ends exactly at maxElapsedMs, and not a millisecond later', () => {
    expect(ask({ status: 503, retryAfterMs: 1_000, elapsedMs: 29_000 })).toBe(1_000);
    expect(ask({ status: 503, retryAfterMs: 1_001, elapsedMs: 29_000 })).toBeUndefined();
  });

  it('uses Retry-After only for an answer: a failure without one backs off', () => {
    expect(ask({ failure: 'timeout', retryAfterMs: 9_000 })).toBe(50);
  });

  it('knows which methods are idempotent (RFC 9110)', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])
      expect(ask({ method, status: 503 }), method).toBe(50);
    for (const method of ['POST', 'PATCH', 'CONNECT']) expect(ask({ method, status: 503 }), method).toBeUndefined();
  });
});

describe('a Retry-After longer than the caller allows ends the retries', () => {
  const unbounded = { ...settings, maxElapsedMs: Number.POSITIVE_INFINITY };
  const askUnbounded = (question: Partial<RetryQuestion>) =>
    shouldRetry({ attempt: 1, method: 'GET', elapsedMs: 0, ...question }, unbounded, () => 0.5);

  it('ten years (Retry-After: 315360000) is no retry, even with maxElapsedMs Infinity', () => {
    expect(askUnbounded({ status: 429, retryAfterMs: 315_360_000_000 })).toBeUndefined();
    expect(askUnbounded({ status: 503, retryAfterMs: Number.POSITIVE_INFINITY })).toBeUndefined();
  });

  it('waits up to maxRetryAfterMs (default 60 000 ms) exactly, and not a millisecond more', () => {
    expect(DEFAULT_RETRY.maxRetryAfterMs).toBe(60_000);
    expect(askUnbounded({ status: 429, retryAfterMs: 60_000 })).toBe(60_000);
    expect(askUnbounded({ status: 429, retryAfterMs: 60_001 })).toBeUndefined();
    const patient = { ...unbounded, maxRetryAfterMs: 120_000 };
    expect(shouldRetry({ attempt: 1, method: 'GET', status: 429, retryAfterMs: 120_000, elapsedMs: 0 }, patient)).toBe(
      120_000,
    );
    const strict = { ...unbounded, maxRetryAfterMs: 0 };
    expect(
      shouldRetry({ attempt: 1, method: 'GET', status: 429, retryAfterMs: 1, elapsedMs: 0 }, strict),
    ).toBeUndefined();
    expect(shouldRetry({ attempt: 1, method: 'GET', status: 429, retryAfterMs: 0, elapsedMs: 0 }, strict)).toBe(0);
  });

  it('a Retry-After past the time maxElapsedMs leaves is no retry either', () => {
    expect(ask({ status: 429, retryAfterMs: 20_000, elapsedMs: 10_001 })).toBeUndefined();
    expect(ask({ status: 429, retryAfterMs: 20_000, elapsedMs: 10_000 })).toBe(20_000);
  });

  it('backoff never asks for more than a timer holds, however many attempts', () => {
    const huge = { ...unbounded, maxAttempts: 5_000, baseDelayMs: MAX_TIMER_MS, maxDelayMs: MAX_TIMER_MS };
    expect(backoffMs(4_000, huge, () => 0.999_999)).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(backoffMs(4_000, { ...huge, baseDelayMs: 0 }, () => 0.5)).toBe(0);
  });
});

describe('retrySettings', () => {
  it('false turns retries off; true and undefined give the defaults', () => {
    expect(retrySettings(false)).toBe(false);
    expect(retrySettings(true)).toEqual(DEFAULT_RETRY);
    expect(retrySettings(undefined)).toEqual(DEFAULT_RETRY);
    expect(DEFAULT_RETRY).toEqual({
      maxAttempts: 3,
      baseDelayMs: 250,
      maxDelayMs: 5_000,
      maxElapsedMs: 30_000,
      maxRetryAfterMs: 60_000,
      statuses: [429, 502, 503, 504],
    });
  });

  it('overrides only what it is given', () => {
    expect(retrySettings({ maxAttempts: 5 })).toEqual({ ...DEFAULT_RETRY, maxAttempts: 5 });
  });

  // `{ maxAttempt: 5 }` or got's `{ retries: 5 }` retried with the defaults, without a word.
  it.each([
    ['maxAttempt', 'maxAttempts'],
    ['retries', 'maxAttempts'],
    ['statusCodes', 'statuses'],
    ['basedelayms', 'baseDelayMs'],
  ])('refuses the setting %s, naming the one meant (%s)', (given, meant) => {
    expect(() => retrySettings({ [given]: 5 } as never)).toThrow(TypeError);
    expect(() => retrySettings({ [given]: 5 } as never)).toThrow(
      new RegExp(`^retry\\.${given} is not an option; did you mean ${meant}\\?$`),
    );
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxAttempts %s, naming the option and the rule', (maxAttempts) => {
    expect(() => retrySettings({ maxAttempts })).toThrow(
      new TypeError('retry.maxAttempts must be a whole number of at least 1'),
    );
  });

  it.each([
    ['baseDelayMs', -1],
    ['baseDelayMs', 2 ** 31],
    ['maxDelayMs', Number.NaN],
    ['maxDelayMs', Number.POSITIVE_INFINITY],
    ['maxRetryAfterMs', 2 ** 31],
    ['maxRetryAfterMs', '60000'],
  ])('refuses %s %s: a wait no timer holds', (name, value) => {
    expect(() => retrySettings({ [name]: value })).toThrow(
      new TypeError(`retry.${name} must be a number of milliseconds from 0 to 2147483647`),
    );
  });

  it.each([-1, Number.NaN, '30000'])('refuses maxElapsedMs %s, naming the option and the rule', (maxElapsedMs) => {
    expect(() => retrySettings({ maxElapsedMs: maxElapsedMs as number })).toThrow(
      new TypeError('retry.maxElapsedMs must be a number of milliseconds of at least 0 (Infinity for no bound)'),
    );
  });

  it('accepts the largest waits a timer holds, and maxElapsedMs Infinity', () => {
    const widest = {
      baseDelayMs: MAX_TIMER_MS,
      maxDelayMs: MAX_TIMER_MS,
      maxRetryAfterMs: MAX_TIMER_MS,
      maxElapsedMs: Number.POSITIVE_INFINITY,
    };
    expect(retrySettings(widest)).toMatchObject(widest);
    expect(MAX_TIMER_MS).toBe(2_147_483_647);
  });

  it('a refusal is data: where, the setting by its path, the rule; its message made of them', () => {
    let error: unknown;
    try {
      retrySettings({ maxAttempts: 0 }, { where: 'createBaasClient', path: 'retry' });
    } catch (caught) {
      error = caught;
    }
    expect(isBaasOptionError(error)).toBe(true);
    const { where, option, rule, message } = error as BaasOptionError;
    expect({ where, option, rule }).toEqual({
      where: 'createBaasClient',
      option: 'retry.maxAttempts',
      rule: 'must be a whole number of at least 1',
    });
    expect(message).toBe('createBaasClient: retry.maxAttempts must be a whole number of at least 1');
  });

  it.each([3, null, 'yes', [5]])('refuses retry %j: not true, false or settings', (retry) => {
    expect(() => retrySettings(retry as never)).toThrow(
      new TypeError('retry must be true, false or retry settings ({ maxAttempts, … })'),
    );
  });

  it.each([[['429']], [[99]], [[600]], [[503.5]], ['503']])('refuses statuses %j: HTTP statuses only', (statuses) => {
    expect(() => retrySettings({ statuses: statuses as never })).toThrow(
      new TypeError('retry.statuses must be a list of HTTP statuses (whole numbers from 100 to 599)'),
    );
  });

  it('a setting given as undefined is the default, as an option left out is', () => {
    expect(retrySettings({ maxAttempts: undefined, statuses: [503] } as never)).toEqual({
      ...DEFAULT_RETRY,
      statuses: [503],
    });
  });

  it('accepts maxAttempts 1: one attempt, no retry', () => {
    expect(retrySettings({ maxAttempts: 1 })).toMatchObject({ maxAttempts: 1 });
  });
});

describe('backoffMs', () => {
  const steps = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 350 };
  it('draws up to base × 2^(attempt-1), capped at maxDelayMs, rounded down', () => {
    expect(backoffMs(1, steps, () => 0.999)).toBe(99);
    expect(backoffMs(2, steps, () => 0.5)).toBe(100);
    expect(backoffMs(3, steps, () => 0.5)).toBe(175);
    expect(backoffMs(9, steps, () => 1)).toBe(350);
    expect(backoffMs(2, steps, () => 0)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it.each([
    [null, undefined],
    ['0', 0],
    [' 3 ', 3_000],
    ['120', 120_000],
    ['Mon, 23 Nov 2026 12:00:30 GMT', 30_000],
    ['Mon, 23 Nov 2026 11:59:00 GMT', 0],
    ['Monday, 23-Nov-26 12:00:10 GMT', 10_000],
    ['soon', undefined],
    ['-5', undefined],
    // A decimal fraction is read as the seconds it says, rounded up to a whole ms, never as a date.
    ['1.5', 1_500],
    ['1.1', 1_100],
    ['1.0005', 1_001],
    ['1.', undefined],
    ['.5', undefined],
    ['1e3', undefined],
    ['2026-11-23T12:00:30Z', undefined],
    ['x Mon, 23 Nov 2026 12:00:30 GMT', undefined],
  ])('%j → %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});

it('reads the asctime form of an HTTP date, which has no comma', () => {
  const start = Date.parse('Mon Nov 23 12:00:00 2026');
  expect(parseRetryAfter('Mon Nov 23 12:00:30 2026', start)).toBe(30_000);
});

describe('sleep', () => {
  it('resolves after the wait', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const waiting = sleep(1_000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([MAX_TIMER_MS + 1, 315_360_000_000, Number.POSITIVE_INFINITY, -1, Number.NaN])(
    'refuses a wait of %s ms that no timer holds, arming none',
    async (ms) => {
      vi.useFakeTimers();
      try {
        await expect(sleep(ms)).rejects.toBeInstanceOf(RangeError);
        expect(vi.getTimerCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it("rejects at once with the signal's reason when already aborted", async () => {
    const reason = new Error('stop');
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("rejects with the signal's reason when aborted during the wait, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      const waiting = sleep(10_000, controller.signal);
      expect(vi.getTimerCount()).toBe(1);
      controller.abort(reason);
      await expect(waiting).rejects.toBe(reason);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops listening to the signal once the wait is over', async () => {
    const controller = new AbortController();
    const removed: string[] = [];
    const signal = controller.signal;
    const original = signal.removeEventListener.bind(signal);
    signal.removeEventListener = ((type: string, listener: EventListenerOrEventListenerObject) => {
      removed.push(type);
      original(type, listener);
    }) as typeof signal.removeEventListener;
    await sleep(1, signal);
    expect(removed).toEqual(['abort']);
  });
});
