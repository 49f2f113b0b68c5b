// verify against a local service that breaks the contract one way at a time: it flags each break
// by its JSON pointer, exits 1, and flags nothing on the controls (exit 0).
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyReport } from '../../src/verify/report.js';
import { startDriftServer, TOKEN } from '../support/drift-server.js';
import { BREAKS, CONTROLS, type DriftCase } from './cases.js';
import { main } from './verify-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-matrix-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function verifyAgainst(c: DriftCase): Promise<{ code: number; report: VerifyReport; output: string }> {
  const server = await startDriftServer(c.breakIt, '/gateway/baas');
  const lines: string[] = [];
  const reportFile = join(dir, `${c.name.replace(/\W+/g, '-')}.json`);
  try {
    const code = await main(['--base-url', server.url, '--token', TOKEN, '--pages', '5', '--report', reportFile], {
      out: (t) => lines.push(t),
      err: (t) => lines.push(t),
      env: {},
    });
    return { code, report: JSON.parse(await readFile(reportFile, 'utf8')), output: lines.join('\n') };
  } finally {
    await server.close();
  }
}

const flagged = (report: VerifyReport) =>
  report.checks.flatMap((c) => c.problems.map((p) => ({ part: p.part, pointer: p.pointer })));

describe('verify: drift matrix', () => {
  for (const c of BREAKS) {
    it(`flags "${c.name}" at ${c.expected.map((e) => `${e.part} ${e.pointer || '(whole)'}`).join(', ')}`, async () => {
      const { code, report, output } = await verifyAgainst(c);
      expect(flagged(report)).toEqual(c.expected);
      expect(report.drifted).toBe(true);
      expect(code).toBe(1);
      expect(output).toMatch(/DRIFT/);
      // The token never reaches the table or the report.
      expect(output).not.toContain(TOKEN);
      expect(JSON.stringify(report)).not.toContain(TOKEN);
    });
  }
  for (const c of CONTROLS) {
    it(`flags nothing on the control "${c.name}"`, async () => {
      const { code, report } = await verifyAgainst(c);
      expect(flagged(report)).toEqual([]);
      expect(report.checks.filter((r) => r.verdict === 'drift' || r.verdict === 'error')).toEqual([]);
      expect(code).toBe(0);
    });
  }
  it('reports a missing optional X-Request-Id as an assumption not seen, not as drift', async () => {
    const { report } = await verifyAgainst(CONTROLS.find((c) => c.name === 'missing optional X-Request-Id')!);
    expect(report.checks.find((r) => r.check === 'X-Request-Id on responses')).toMatchObject({
      verdict: 'not-seen',
      problems: [],
    });
  });
  it('on a conformant service: every check ok or held, cursor.next null on the last page held, within budget', async () => {
    const { code, report, output } = await verifyAgainst({
      name: 'conformant',
      breakIt: () => {},
      expected: [],
      shownBy: 1,
    });
    expect(code).toBe(0);
    expect(report.checks.map((r) => [r.check, r.verdict])).toEqual([
      ['list-keys page 1', 'ok'],
      ['list-keys page 2', 'ok'],
      ['cursor.next null on the last page', 'held'],
      ['list-keys without a token', 'ok'],
      ['list-keys with limit=201', 'ok'],
      ['X-Request-Id on responses', 'held'],
      ['rate-limit headers', 'not-seen'],
    ]);
    expect(report.budgets.requests.used).toBe(4);
    expect(output).toMatch(/requests: 4 of \d+/);
    expect(output).toMatch(/time: [0-9.]+ s of 120 s/);
  });
});
