// verify's report as a person reads it (the table) and as JSON: the exact text, the summary line
// for each outcome, problems under the table, and secrets and CPFs masked in both.
import { describe, expect, it } from 'vitest';
import { formatJson, formatTable, type CheckResult, type VerifyReport } from '../../src/verify/report.js';

const SECRET = 'tok-abcdef-123456';

function report(checks: CheckResult[], extra: Partial<VerifyReport> = {}): VerifyReport {
  const counts = { ok: 0, drift: 0, held: 0, 'not-seen': 0, error: 0 };
  for (const c of checks) counts[c.verdict] += 1;
  return {
    tool: 'baas-pix-contract verify 1.0.0',
    contractVersion: '1.0.0',
    baseUrl: 'http://127.0.0.1:9',
    credentials: 'token',
    startedAt: '2026-01-01T00:00:00.000Z',
    readOnly: true,
    budgets: { requests: { used: 3, limit: 12, retriesAfterWait: 1 }, timeMs: { used: 1_234, limit: 1_500 } },
    checks,
    drifted: counts.drift > 0,
    counts,
    ...extra,
  };
}

const ok = (check: string, seen = 'fine'): CheckResult => ({
  check,
  expected: 'exp',
  seen,
  verdict: 'ok',
  problems: [],
});

describe('formatTable', () => {
  it('aligns the columns to the widest cell, with the verdict in capitals, then budgets and the summary', () => {
    const text = formatTable(
      report([
        ok('a'),
        { check: 'second check', expected: 'x', seen: 'y', verdict: 'not-seen', problems: [] },
        {
          check: 'c',
          expected: 'e',
          seen: 's',
          verdict: 'drift',
          problems: [
            { part: 'body', pointer: '/data', rule: 'is required' },
            { part: 'header', pointer: '/retry-after', rule: 'is required' },
          ],
        },
      ]),
      [],
    );
    expect(text.split('\n')).toEqual([
      'check         expected  seen  verdict',
      '------------  --------  ----  --------',
      'a             exp       fine  OK',
      'second check  x         y     NOT-SEEN',
      'c             e         s     DRIFT',
      '  c: body/data is required',
      '  c: header retry-after is required',
      '',
      'requests: 3 of 12 (1 after a Retry-After wait); time: 1.2 s of 1.5 s',
      'DRIFT: 1 ok, 1 drift, 1 not-seen',
    ]);
  });

  it('caps a column at 60 characters: a longer cell pushes its row out, the others stay aligned', () => {
    const long = 's'.repeat(70);
    const lines = formatTable(report([ok('a', long), ok('b', 'short')]), []).split('\n');
    expect(lines[1]).toBe(`-----  --------  ${'-'.repeat(60)}  -------`);
    expect(lines[2]).toBe(`a      exp       ${long}  OK`);
    expect(lines[3]).toBe(`b      exp       short${' '.repeat(55)}  OK`);
  });

  it.each([
    ['no drift and every check ran', [ok('a'), { ...ok('b'), verdict: 'held' as const }], 'no drift: 1 ok, 1 held'],
    [
      'no drift but a check could not run',
      [ok('a'), { ...ok('b'), verdict: 'error' as const }],
      'INCOMPLETE (no drift seen, but some checks could not run): 1 ok, 1 error',
    ],
    [
      'drift and an error',
      [
        { ...ok('a'), verdict: 'drift' as const },
        { ...ok('b'), verdict: 'error' as const },
      ],
      'DRIFT: 1 drift, 1 error',
    ],
  ])('summary when %s', (_name, checks, summary) => {
    expect(formatTable(report(checks), []).split('\n').at(-1)).toBe(summary);
  });

  it('masks the given secrets, bearer tokens and CPFs anywhere in the table', () => {
    const text = formatTable(
      report([
        {
          check: 'update 52998224725',
          expected: 'exp',
          seen: `Bearer ${SECRET} and ${SECRET}`,
          verdict: 'error',
          problems: [],
        },
      ]),
      [SECRET],
    );
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('52998224725');
    expect(text).toContain('update *********25');
    expect(text).toContain('Bearer [REDACTED] and [REDACTED]');
  });
});

describe('formatJson', () => {
  it('is the report, indented by two spaces, with secrets and CPFs masked', () => {
    const r = report([{ check: 'c', expected: 'e', seen: `${SECRET} for 52998224725`, verdict: 'ok', problems: [] }]);
    const text = formatJson(r, [SECRET]);
    expect(text.startsWith('{\n  "tool": "baas-pix-contract verify 1.0.0",\n  "contractVersion"')).toBe(true);
    expect(JSON.parse(text)).toEqual({ ...r, checks: [{ ...r.checks[0], seen: '[REDACTED] for *********25' }] });
  });
});
