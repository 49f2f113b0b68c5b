// verify's report as a person reads it (the table) and as JSON: the exact text, the summary line
// for each outcome, problems under the table, and secrets and CPFs masked in both; and the words of a
// credential failure, which verify, update-many and export-keys all print (pinned here only).
import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/redact.js';
import { type CredentialRefusal, refusalMessage, refusalSeen } from '../../src/cli/connection/credentials.js';
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
      Secrets.none,
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
    const lines = formatTable(report([ok('a', long), ok('b', 'short')]), Secrets.none).split('\n');
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
    expect(formatTable(report(checks), Secrets.none).split('\n').at(-1)).toBe(summary);
  });

  it.each([
    ['credentials refused', { by: 'service', status: 401 }, 'CREDENTIALS REFUSED: 1 error'],
    [
      'a --token-url that is no token endpoint',
      { by: 'token endpoint', status: 404, failure: 'rejected' },
      'NO TOKEN: 1 error',
    ],
  ] as const)('summary when %s, the message just above it', (_name, refusal, summary) => {
    const row = { ...ok('credentials'), verdict: 'error' as const };
    const lines = formatTable(
      report([row], { credentialsRefused: { ...refusal, message: 'what to do' } }),
      Secrets.none,
    ).split('\n');
    expect(lines.slice(-2)).toEqual(['what to do', summary]);
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
      Secrets.of([SECRET]),
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
    const text = formatJson(r, Secrets.of([SECRET]));
    expect(text.startsWith('{\n  "tool": "baas-pix-contract verify 1.0.0",\n  "contractVersion"')).toBe(true);
    expect(JSON.parse(text)).toEqual({ ...r, checks: [{ ...r.checks[0], seen: '[REDACTED] for *********25' }] });
  });
});

describe('the words of a credential failure (src/verify/credentials.ts), the same in every command', () => {
  const source = {
    kind: 'client credentials',
    shownTokenUrl: 'https://auth.example/oauth/tokn?tenant=REDACTED',
  } as const;
  const endpoint = (
    status: number | undefined,
    failure: NonNullable<CredentialRefusal['failure']>,
    code?: string,
  ): CredentialRefusal => ({
    by: 'token endpoint',
    status,
    failure,
    ...(code ? { code } : {}),
  });
  it.each<[string, CredentialRefusal, string, string]>([
    [
      'the service refuses a token',
      { by: 'service', status: 401 },
      'the service refused the credentials (401): check --client-id, BAAS_CLIENT_SECRET (or --client-secret), --scope and --token-url',
      'credentials refused (401)',
    ],
    [
      'the token endpoint refuses the client',
      endpoint(401, 'rejected', 'invalid_client'),
      'the token endpoint refused the client credentials (401 invalid_client): check --client-id, BAAS_CLIENT_SECRET (or --client-secret), --scope and --token-url',
      'refused by the token endpoint (401 invalid_client)',
    ],
    [
      '404',
      endpoint(404, 'rejected'),
      'the token URL https://auth.example/oauth/tokn?tenant=REDACTED answered 404 (not found): it is not the token endpoint; check --token-url',
      'not a token endpoint (404)',
    ],
    [
      '405',
      endpoint(405, 'rejected'),
      'the token URL https://auth.example/oauth/tokn?tenant=REDACTED answered 405 (method not allowed): it is not the token endpoint; check --token-url',
      'not a token endpoint (405)',
    ],
    [
      'a page that is no token answer',
      endpoint(200, 'invalid_response'),
      'the token URL https://auth.example/oauth/tokn?tenant=REDACTED answered 200 but gave no usable token: is it the token endpoint? check --token-url',
      'not a token endpoint (200)',
    ],
    [
      '503',
      endpoint(503, 'rejected'),
      'the token URL https://auth.example/oauth/tokn?tenant=REDACTED answered 503 (a server error): no token was issued; try again later, or check --token-url',
      'no token from the token endpoint (503)',
    ],
    [
      '429',
      endpoint(429, 'rejected'),
      'the token URL https://auth.example/oauth/tokn?tenant=REDACTED answered 429 (too many requests): no token was issued; try again later, or check --token-url',
      'no token from the token endpoint (429)',
    ],
    [
      'no answer',
      endpoint(undefined, 'network'),
      'the token URL https://auth.example/oauth/tokn?tenant=REDACTED could not be reached: no token was issued; try again later, or check --token-url',
      'no token from the token endpoint (network)',
    ],
    [
      'too slow',
      endpoint(undefined, 'timeout'),
      'the token URL https://auth.example/oauth/tokn?tenant=REDACTED did not answer in time: no token was issued; try again later, or check --token-url',
      'no token from the token endpoint (timeout)',
    ],
  ])('%s', (_case, refusal, message, seen) => {
    expect(refusalMessage(source, refusal)).toBe(message);
    expect(refusalSeen(refusal)).toBe(seen);
  });

  it('a token held: the flag and the variable that gave it', () => {
    expect(refusalMessage({ kind: 'token' }, { by: 'service', status: 403 })).toBe(
      'the service refused the credentials (403): check --token / BAAS_TOKEN',
    );
  });
});
