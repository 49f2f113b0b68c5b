// update-many at volume: 300 updates against a sandbox limited to 100 requests per second that
// answers 5 % of updates with a 503; every customer ends updated, and the report (settings, each
// line's outcome, the summary) and the journal hold no CPF, no account number and no token. (It was
// 1,000 at 50 per second, 20 s of waiting by design; 3 s of pacing shows the same.)
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingSandbox, countingSandbox, journalEntries, runMain, tempDir, updateLine } from './harness.js';

/** Customers, one update each; the sandbox's limit per second. */
const CUSTOMERS = 300;
const LIMIT = 100;

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({
    clients: 1,
    accountsPerClient: CUSTOMERS,
    keysPerAccount: 0,
    rateLimit: { requests: LIMIT },
    faults: [{ operation: 'updateNaturalPerson', share: 0.05, status: 503, retryAfterSeconds: 0 }],
  });
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

describe('update-many against a rate-limited sandbox with 5 % of 503s', () => {
  it('updates all 300 customers (found without --rate), exits 0; report and journal name lines, never a CPF or token', async () => {
    const client = sandbox.sandbox.clients[0]!;
    const input = dir.file('input.jsonl');
    await writeFile(
      input,
      `${client.accounts.map((account, index) => updateLine(account, { socialName: `Batch ${index + 1}` })).join('\n')}\n`,
    );
    const [journal, report] = [dir.file('journal'), dir.file('report.json')];
    const run = await runMain(
      ['update-many', '--input', input, '--base-url', sandbox.url, '--journal', journal, '--report', report],
      { BAAS_TOKEN: client.token },
      // In process and without sockets: the pacing, the retries and the report are the command's.
      { fetch: sandbox.fetch },
    );
    expect(run.stderr).not.toContain(client.token);
    // Every request went through the fetch the command was given (CommandContext.fetch), none over HTTP.
    expect(sandbox.fetched()).toBe(sandbox.requests.length);
    expect(run.code, run.stdout).toBe(0);
    const customers = sandbox.sandbox.snapshot().clients[0]!.accounts;
    expect(customers.map((customer) => customer.data.socialName)).toEqual(
      customers.map((_, index) => `Batch ${index + 1}`),
    );
    // 503s and 429s were answered along the way, and retried.
    expect(sandbox.requests.some((line) => / → HTTP 503 /.test(line))).toBe(true);

    const written = await readFile(report, 'utf8');
    const parsed = JSON.parse(written) as {
      settings: Record<string, unknown>;
      lines: { line: number; outcome: string }[];
      summary: Record<string, unknown>;
    };
    expect(parsed.settings).toMatchObject({ concurrency: 8, rate: null, credentials: 'token', baseUrl: sandbox.url });
    expect(parsed.lines.map((entry) => entry.line).sort((a, b) => a - b)).toEqual(client.accounts.map((_, i) => i + 1));
    expect(new Set(parsed.lines.map((entry) => entry.outcome))).toEqual(new Set(['ok']));
    expect(parsed.summary).toMatchObject({
      lines: CUSTOMERS,
      sent: CUSTOMERS,
      ok: CUSTOMERS,
      failed: 0,
      skipped: 0,
      invalid: 0,
    });
    expect(parsed.summary.requests).toBeGreaterThan(CUSTOMERS);

    const journaled = await readFile(journal, 'utf8');
    expect((await journalEntries(journal)).filter((entry) => entry.outcome === 'ok')).toHaveLength(CUSTOMERS);
    for (const text of [written, journaled, run.stdout, run.stderr]) {
      expect(text).not.toContain(client.token);
      for (const account of client.accounts) {
        expect(text).not.toContain(account.documentNumber);
        expect(text).not.toContain(`"${account.account}"`);
      }
    }
  });
});
