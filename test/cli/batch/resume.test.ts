// update-many after a crash: killed with SIGKILL half way (the sandbox answers a third of the lines and
// holds the rest, so the kill comes at a known point however slow the machine), then run again with the
// same journal, it sends no line the journal recorded as done (each such customer got exactly one
// successful PUT in all), sends every other one, and exits 0 once every line is done. The killed run is
// a real process; the run that resumes runs in process.
import { writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CountingSandbox,
  countingSandbox,
  journalEntries,
  killChildren,
  leaseRunOut,
  runMain,
  startCli,
  tempDir,
  until,
  updateLine,
} from './harness.js';

const LINES = 150;
let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({
    clients: 1,
    accountsPerClient: LINES,
    keysPerAccount: 0,
  });
  dir = await tempDir();
});
afterEach(killChildren);
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

describe('update-many resumed from its journal after kill -9', () => {
  it('sends no journaled line again, sends the rest, exits 0', async () => {
    const client = sandbox.sandbox.clients[0]!;
    const input = dir.file('input.jsonl');
    await writeFile(
      input,
      client.accounts.map((account, i) => updateLine(account, { socialName: `Run ${i + 1}` })).join('\n'),
    );
    const journal = dir.file('journal');
    const args = ['update-many', '--input', input, '--base-url', sandbox.url, '--journal', journal];
    const env = { BAAS_TOKEN: client.token };

    sandbox.holdAfter(LINES / 3);
    const first = startCli(args, env);
    await until(async () => (await journalEntries(journal)).length >= LINES / 3);
    first.child.kill('SIGKILL');
    const killed = await first.finished;
    expect(killed.signal).toBe('SIGKILL');
    await leaseRunOut(journal);
    const doneBefore = (await journalEntries(journal))
      .filter((entry) => entry.outcome === 'ok')
      .map((e) => e.line as number);
    expect(doneBefore.length).toBe(LINES / 3);
    const before = new Map(sandbox.updated);
    sandbox.release();

    const second = await runMain(args, env, { fetch: sandbox.fetch });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    for (const line of doneBefore) {
      const account = client.accounts[line - 1]!.account;
      // Not sent again: one successful PUT in all, the one of the first run.
      expect(sandbox.updated.get(account), `line ${line}`).toBe(1);
      expect(before.get(account)).toBe(1);
    }
    const customers = sandbox.sandbox.snapshot().clients[0]!.accounts;
    expect(customers.map((customer) => customer.data.socialName)).toEqual(customers.map((_, i) => `Run ${i + 1}`));
    expect(second.stdout).toMatch(new RegExp(`skipped +${new Set(doneBefore).size} `));
  });
});
