// What verify prints never carries the CPF or account given with --allow-writes (in the spelling
// given), nor a control character a hostile service put in a header: the table escapes them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputSecrets } from '../../src/verify/options.js';
import { Secrets } from '../../src/redact.js';
import { escapeControls, formatTable, type VerifyReport } from '../../src/verify/report.js';
import { fakeService, SERVICE_TOKEN, type Reply } from './verify-service.js';
import { main, parseVerifyArgs } from './verify-cli.js';

// Spellings the CPF and account patterns of src/redact.ts do not catch on their own: only the list
// of secrets verify hands over masks them.
// Digits only: the write goes through the client's pre-flight rule, which takes the contract's form.
const DOCUMENT = '52998224725';
const ACCOUNT = '300541976902';

let dir: string;
let bodyFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-output-'));
  bodyFile = join(dir, 'update.json');
  await writeFile(bodyFile, JSON.stringify({ email: 'maria@example.com' }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(update: Reply, list?: Reply) {
  const service = fakeService((kind) => (kind === 'update' ? update : kind === 'page1' ? list : undefined));
  const out: string[] = [];
  const err: string[] = [];
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const code = await main(
    [
      '--base-url',
      'http://127.0.0.1:9',
      '--token',
      SERVICE_TOKEN,
      '--allow-writes',
      '--account',
      ACCOUNT,
      '--document-number',
      DOCUMENT,
      '--body',
      bodyFile,
      '--report',
      report,
    ],
    { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, fetch: service.fetch as typeof globalThis.fetch },
  );
  return { code, table: out.join('\n'), err: err.join('\n'), json: await readFile(report, 'utf8'), service };
}

describe('the CPF and the account of the write', () => {
  it('are among the secrets every output masks', () => {
    const options = parseVerifyArgs([
      '--base-url',
      'https://x',
      '--token',
      SERVICE_TOKEN,
      '--allow-writes',
      '--account',
      ACCOUNT,
      '--document-number',
      DOCUMENT,
      '--body',
      'b.json',
    ]);
    // The CPF as it is sent (its 11 digits): the masking hides it in any spelling, the one given among them.
    expect(outputSecrets(options).values()).toEqual(
      expect.arrayContaining([SERVICE_TOKEN, ACCOUNT, DOCUMENT.replace(/\D/g, '')]),
    );
  });

  it('echoed by the service in a header that reaches the table (its content type): masked in the table and the report', async () => {
    const { table, json, service } = await run({
      status: 200,
      headers: { 'content-type': `application/x-${DOCUMENT}-${ACCOUNT}` },
      body: '{}',
    });
    // The write really went out with both (the CPF as its 11 digits, the contract's form).
    expect(service.requests.some((r) => r.url.searchParams.get('DocumentNumber') === DOCUMENT.replace(/\D/g, ''))).toBe(
      true,
    );
    // The CPF keeps its check digits (masked as every CPF is); the account is masked whole.
    expect(table).toMatch(/update natural person \(write\).*application\/x-\*{9}25-\[REDACTED\]/);
    for (const text of [table, json]) {
      expect(text).not.toContain(DOCUMENT);
      expect(text).not.toContain(ACCOUNT);
      expect(text).not.toContain(SERVICE_TOKEN);
    }
  });
});

describe('control characters from the service', () => {
  it('escapes C0, DEL, C1, line separators and bidi overrides; leaves other text alone', () => {
    expect(escapeControls('a\x1b[31mb\rc\nd\te\x7ff\x9bg\u2028h\u202ei\u2066j é ✓')).toBe(
      'a\\x1b[31mb\\rc\\nd\\te\\x7ff\\x9bg\\u2028h\\u202ei\\u2066j é ✓',
    );
  });

  it('a content type carrying ESC, CSI or DEL reaches the table escaped, and the report as JSON escapes', async () => {
    const hostile = 'application/json\x1b[2J\x1b[31m\x9b1m\x7f';
    const { table, json } = await run(
      { status: 200, headers: { 'content-type': hostile }, body: '{}' },
      { status: 200, headers: { 'content-type': hostile }, body: '{}' },
    );
    expect(table).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(table).toContain('application/json\\x1b[2J\\x1b[31m\\x9b1m\\x7f');
    expect(json).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    // The report is still the same JSON: the escapes decode to what was seen.
    const report = JSON.parse(json) as { checks: { seen: string }[] };
    expect(report.checks.some((c) => c.seen.includes(hostile))).toBe(true);
  });

  it('a problem line under the table (a JSON pointer made of member names the service chose) is escaped too', () => {
    const report: VerifyReport = {
      tool: 't',
      contractVersion: '0',
      baseUrl: 'http://127.0.0.1:9',
      credentials: 'token',
      startedAt: '',
      readOnly: true,
      budgets: { requests: { used: 1, limit: 1, retriesAfterWait: 0 }, timeMs: { used: 0, limit: 1 } },
      checks: [
        {
          check: 'c',
          expected: 'e',
          seen: 's',
          verdict: 'drift',
          problems: [{ part: 'body', pointer: '/a\nGET /injected 200\x1b[0m', rule: 'is x' }],
        },
      ],
      drifted: true,
      counts: { ok: 0, drift: 1, held: 0, 'not-seen': 0, error: 0 },
    };
    const lines = formatTable(report, Secrets.none).split('\n');
    expect(lines).toContain('  c: body/a\\nGET /injected 200\\x1b[0m is x');
    expect(lines.some((l) => l.startsWith('GET /injected'))).toBe(false);
  });
});
