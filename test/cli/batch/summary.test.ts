// The summary update-many prints: every count written as the first line writes its own ("Done: 1,000
// lines"), so a run of a thousand lines does not say "sent 1000" under "1,000 lines".
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureOf, type Summary, summaryLines, Tally } from '../../../src/cli/batch/summary.js';
import { BaasApiError, BaasTimeoutError } from '../../../src/errors.js';
import { redactMessage, Secrets } from '../../../src/redact.js';

/** An error's context where no secret is known: every rule of the masking still applies. */
const NONE = { secrets: Secrets.none };

describe('the summary', () => {
  it('groups the digits of every count as the first line does', () => {
    const lines = summaryLines({
      lines: 12_345,
      sent: 11_000,
      ok: 10_000,
      failed: 1_000,
      failedBy: { '503': 1_000 },
      skipped: 1_200,
      invalid: 145,
      elapsedSeconds: 250.5,
      requests: 12_500,
      requestsPerSecond: 1_234.5,
      interrupted: false,
      givenUp: 0,
    });
    const text = lines.join('\n');
    expect(lines[0]).toContain('12,345 lines');
    for (const count of ['11,000', '10,000', '1,000', '1,200', '12,500', '1,234.5']) expect(text).toContain(count);
    expect(text).not.toMatch(/\d{4}/);
  });
});

describe('the summary: what it lists', () => {
  const summary: Summary = {
    lines: 9,
    sent: 6,
    ok: 0,
    failed: 6,
    // Insertion order is not the order shown: the most frequent reason first.
    failedBy: { '503': 2, timeout: 1, network: 3 },
    skipped: 2,
    invalid: 145,
    elapsedSeconds: 250.5,
    requests: 8,
    requestsPerSecond: 0,
    interrupted: false,
    givenUp: 0,
  };

  it('the failures by reason, most frequent first; the invalid count and the time', () => {
    const lines = summaryLines(summary);
    expect(lines[0]).toMatch(/^Done: /);
    expect(lines).toContainEqual(expect.stringMatching(/ network for 3 lines, 503 for 2 lines, timeout for 1 line$/));
    expect(lines).toContainEqual(expect.stringMatching(/invalid +145$/));
    expect(lines).toContainEqual(expect.stringMatching(/elapsed +250\.5 s$/));
  });

  it('no two of its numbers join into a run the terminal would mask as a CPF', () => {
    const big = {
      ...summary,
      failedBy: { '503': 1_234, '422': 1 },
      requests: 12_345_678,
      requestsPerSecond: 12.3,
    };
    for (const line of summaryLines(big)) expect(redactMessage(line)).toBe(line);
  });

  it('no line of failures when none failed; an interrupted run says so first', () => {
    const all = summaryLines(summary);
    const none = summaryLines({ ...summary, failed: 0, failedBy: {}, interrupted: true });
    expect(none).toHaveLength(all.length - 1);
    expect(none.some((line) => line.includes('network'))).toBe(false);
    expect(none[0]).toMatch(/^Interrupted: /);
  });
});

describe('Tally', () => {
  afterEach(() => vi.restoreAllMocks());

  it('counts each outcome, and the failures by status, else kind, else "error"', () => {
    const tally = new Tally();
    for (const outcome of ['ok', 'ok', 'skipped', 'invalid', 'invalid', 'invalid'] as const)
      tally.add({ line: 1, outcome });
    tally.add({ line: 2, outcome: 'failed', status: 503, kind: 'api' });
    tally.add({ line: 3, outcome: 'failed', status: 503, kind: 'api' });
    tally.add({ line: 4, outcome: 'failed', kind: 'timeout' });
    tally.add({ line: 5, outcome: 'failed' });
    expect(tally.summary()).toMatchObject({
      lines: 10,
      sent: 6,
      ok: 2,
      failed: 4,
      failedBy: { '503': 2, timeout: 1, error: 1 },
      skipped: 1,
      invalid: 3,
      interrupted: false,
      givenUp: 0,
    });
  });

  it('the time since it began, to a tenth of a second, and the requests per second over it', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(10_000);
    const tally = new Tally();
    tally.requests = 10;
    now.mockReturnValue(10_000);
    expect(tally.summary()).toMatchObject({ elapsedSeconds: 0, requestsPerSecond: 0 });
    now.mockReturnValue(12_540);
    expect(tally.summary()).toMatchObject({ elapsedSeconds: 2.5, requestsPerSecond: 3.9 });
  });
});

describe('failureOf', () => {
  it('the status and kind of an answer, the kind of a failure without one, an abort, anything else', () => {
    expect(failureOf(new BaasApiError({ status: 404 }, NONE))).toEqual({ status: 404, kind: 'api' });
    expect(failureOf(new BaasTimeoutError(100, NONE))).toStrictEqual({ kind: 'timeout' });
    expect(failureOf(new DOMException('stopped', 'AbortError'))).toEqual({ kind: 'aborted' });
    expect(failureOf(new Error('boom'))).toEqual({ kind: 'error' });
    expect(failureOf('boom')).toEqual({ kind: 'error' });
  });
});
