// The second, independent reader: Redocly respect runs the shipped Arazzo description against the
// same local service, case by case, and must agree with verify wherever both can express the case
// (respect checks status, content type and schema per step; a repeated cursor takes verify's walk).
// One known divergence, asserted so a change in either shows: respect validates with Ajv's
// `defaultUnevaluatedProperties: false`, so it fails a body with members the contract does not
// name, while the contract (and verify) says readers tolerate them. And respect on the package's own
// stateful sandbox, which pages for real: no failed check (verify's walk of it is
// verify-sandbox.test.ts's, in npm test).
import { describe, expect, it } from 'vitest';
import { runVerify } from '../../src/verify/run.js';
import type { VerifyReport } from '../../src/verify/report.js';
import { startDriftServer, TOKEN } from '../support/drift-server.js';
import { listeningSandbox } from '../support/listening-sandbox.js';
import { respect } from '../support/respect.js';
import { BREAKS, CONTROLS, type DriftCase } from './cases.js';
import { parseVerifyArgs } from './verify-cli.js';

// verify's check → the Arazzo step that makes the same request; problem part → respect's check.
const STEP: Record<string, string> = {
  'list-keys page 1': 'firstPage',
  'list-keys page 2': 'nextPage',
  'list-keys without a token': 'noToken',
  'list-keys with limit=201': 'limitTooLarge',
};
const CHECK: Record<string, string> = {
  body: 'schema check',
  'content-type': 'content-type check',
  status: 'status code check',
};

async function both(
  c: DriftCase,
): Promise<{ verify: string[]; respect: string[]; verifyCode: number; respectCode: number }> {
  const server = await startDriftServer(c.breakIt, '/gateway/baas');
  try {
    const report: VerifyReport = await runVerify(
      parseVerifyArgs(['--base-url', server.url, '--token', TOKEN, '--pages', '2']),
    );
    const verifyCode = report.drifted ? 1 : 0;
    const verify = [
      ...new Set(report.checks.flatMap((r) => r.problems.map((p) => `${STEP[r.check]}: ${CHECK[p.part]}`))),
    ].sort();
    const run = await respect(server.url, TOKEN);
    // Only the kinds of check verify also makes; respect's own follow-on errors (an "unexpected
    // error" evaluating cursor.next on a text body) are consequences, not separate findings.
    const kinds = new Set(Object.values(CHECK));
    return {
      verify,
      respect: run.failed.filter((f) => kinds.has(f.split(': ')[1]!)),
      verifyCode,
      respectCode: run.exitCode,
    };
  } finally {
    await server.close();
  }
}

describe('respect and verify agree on the drift matrix', () => {
  it('a conformant service passes both', async () => {
    const r = await both({ name: 'conformant', breakIt: () => {}, expected: [], shownBy: 1 });
    expect(r).toEqual({ verify: [], respect: [], verifyCode: 0, respectCode: 0 });
  });
  for (const c of BREAKS.filter((b) => !b.stateful)) {
    it(`both flag "${c.name}" at the same step and check`, async () => {
      const r = await both(c);
      expect(r.verify.length).toBeGreaterThan(0);
      expect(r.respect).toEqual(r.verify);
      expect(r.verifyCode).toBe(1);
      expect(r.respectCode).not.toBe(0);
    });
  }
  it('respect, unlike the contract, fails a body with unknown members (the one known divergence)', async () => {
    const r = await both(CONTROLS.find((c) => c.name === 'extra unknown member')!);
    expect(r).toEqual({ verify: [], respect: ['firstPage: schema check'], verifyCode: 0, respectCode: 1 });
  });
  for (const c of CONTROLS.filter((c) => c.name !== 'extra unknown member')) {
    it(`neither flags the control "${c.name}"`, async () => {
      const r = await both(c);
      expect(r).toEqual({ verify: [], respect: [], verifyCode: 0, respectCode: 0 });
    });
  }
});

describe('the sandbox against the contract', () => {
  // Moved from verify-sandbox.test.ts: a Redocly process (1.5 s of CPU) for the one respect run of npm
  // test; respect is the matrix's second reader everywhere else.
  const running = listeningSandbox('verify', { keysPerAccount: 5 });
  const token = running.client.token;

  it('Redocly respect runs the shipped Arazzo description with no failed check', async () => {
    const run = await respect(running.url, token, { pageSize: 4 });
    expect(run.steps).toEqual(expect.arrayContaining(['firstPage', 'nextPage', 'noToken', 'limitTooLarge']));
    expect(run.failed).toEqual([]);
    expect(run.exitCode).toBe(0);
  });
});
