// The retry decision, one function of (attempt, method, status or failure, Retry-After, elapsed time).
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, shouldRetry, type RetryQuestion } from '../../src/client/retry.js';

const settings = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
const ask = (question: Partial<RetryQuestion>) => shouldRetry({ attempt: 1, method: 'GET', elapsedMs: 0, ...question }, settings, () => 0.5);

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
