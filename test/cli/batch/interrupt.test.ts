// update-many and Ctrl-C: SIGINT stops taking new lines, lets the requests in flight finish, flushes
// the journal (every update the sandbox applied is in it), prints the summary and exits 130. Both batch
// commands end a stopped run by saying how to go on. The update-many cases are a real process sent real
// SIGINTs (the signal reaching the command, its status the process's); export-keys runs in process, the
// signal delivered to the handlers the command added (harness.ts, startMain).
import { writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CountingSandbox,
  countingSandbox,
  journalEntries,
  killChildren,
  startCli,
  startMain,
  tempDir,
  until,
  updateLine,
} from './harness.js';

const LINES = 200;
let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  // Each update takes 200 ms: there are always some in flight.
  sandbox = await countingSandbox({
    clients: 1,
    accountsPerClient: LINES,
    keysPerAccount: 0,
    faults: [{ operation: 'updateNaturalPerson', share: 1, delayMs: 200 }],
  });
  dir = await tempDir();
});
afterEach(killChildren);
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

describe('update-many stopped with SIGINT', () => {
  it('finishes the requests in flight, journals each of them, prints the summary, exits 130', async () => {
    const client = sandbox.sandbox.clients[0]!;
    const input = dir.file('input.jsonl');
    await writeFile(input, client.accounts.map((account) => updateLine(account, { socialName: 'Stopped' })).join('\n'));
    const journal = dir.file('journal');
    const run = startCli(
      ['update-many', '--input', input, '--base-url', sandbox.url, '--journal', journal, '--concurrency', '4'],
      { BAAS_TOKEN: client.token },
    );
    await until(async () => (await journalEntries(journal)).length >= 8);
    run.child.kill('SIGINT');
    const finished = await run.finished;
    expect(finished.code, finished.stdout + finished.stderr).toBe(130);
    expect(finished.stdout).toMatch(/^Interrupted: /m);
    // What to do next, last: the same command with the same journal.
    expect(finished.stdout.trimEnd().split('\n').at(-1)).toMatch(/same command again .*--journal/);
    const entries = await journalEntries(journal);
    // In flight at the signal, finished all the same: no line was cut off.
    expect(entries.filter((entry) => entry.outcome !== 'ok')).toEqual([]);
    const ok = entries.map((entry) => entry.line as number);
    expect(ok.length).toBeLessThan(LINES);
    // Every update the sandbox applied was journaled: none was cut off, none left unflushed.
    const applied = client.accounts.flatMap((account, index) =>
      sandbox.updated.has(account.account) ? [index + 1] : [],
    );
    expect([...ok].sort((a, b) => a - b)).toEqual(applied);
    expect(new Set(ok).size).toBe(ok.length);
  });
});

describe('update-many given up with a second SIGINT', () => {
  // A real process sent two real SIGINTs. The requests past the 8th are held unanswered until the
  // client gives up on them: a second Ctrl-C that did not abort them would wait for the client's
  // timeout (10 s) and journal each held line as a failed timeout; the run must instead end at once,
  // record none of them, and say how many it gave up.
  it('aborts what is in flight at once, records none of it, says so; journal flushed, summary, how to go on, exit 130', async () => {
    const client = sandbox.sandbox.clients[0]!;
    const input = dir.file('input-twice.jsonl');
    await writeFile(input, client.accounts.map((account) => updateLine(account, { socialName: 'Twice' })).join('\n'));
    const journal = dir.file('journal-twice');
    // 8 answered, then every request is held: the second signal finds requests in flight, whatever the load.
    sandbox.holdAfter(8);
    const run = startCli(
      ['update-many', '--input', input, '--base-url', sandbox.url, '--journal', journal, '--concurrency', '4'],
      { BAAS_TOKEN: client.token },
    );
    try {
      await until(async () => (await journalEntries(journal)).length >= 8);
      run.child.kill('SIGINT');
      await until(() => run.stderr().includes('Ctrl-C again'));
      run.child.kill('SIGINT');
      const finished = await run.finished;
      const said = finished.stdout + finished.stderr;
      expect(finished.code, said).toBe(130);
      expect(finished.stderr).toContain('giving up the requests in flight');
      expect(finished.stdout).toMatch(/^Interrupted: 8 lines$/m);
      expect(finished.stdout).toMatch(/^ {2}sent +8 \(ok 8, failed 0\)$/m);
      // The 4 in flight at the second signal (--concurrency 4): given up, said, not recorded.
      expect(finished.stdout).toMatch(
        /^ {2}given up +4 \(in flight at the second Ctrl-C: not recorded, so a rerun sends them\)$/m,
      );
      expect(said).not.toMatch(/timeout|not done/);
      expect(finished.stdout.trimEnd().split('\n').at(-1)).toMatch(/same command again .*--journal/);
      expect(finished.stderr).not.toMatch(/\n\s+at /);
      // What was answered is journaled; nothing held was recorded, neither as done nor as failed.
      const entries = await journalEntries(journal);
      expect(entries.map((entry) => entry.outcome)).toEqual(Array(8).fill('ok'));
    } finally {
      sandbox.release();
    }
  });
});

describe('export-keys stopped with SIGINT', () => {
  let keys: CountingSandbox;
  beforeAll(async () => {
    // 100 pages of 5 keys, each answered after 200 ms: the export is still running when the signal comes.
    keys = await countingSandbox({
      clients: 1,
      accountsPerClient: 50,
      keysPerAccount: 10,
      faults: [{ operation: 'listPixKeys', share: 1, delayMs: 200 }],
    });
  });
  afterAll(() => keys?.stop());

  it('exits 130 and says, last, that the same command and journal go on', async () => {
    const journal = dir.file('keys.journal');
    const run = startMain(
      ['export-keys', '--out', dir.file('keys.jsonl'), '--journal', journal, '--limit', '5', '--base-url', keys.url],
      { BAAS_TOKEN: keys.sandbox.clients[0]!.token },
    );
    // The header and one page.
    await until(async () => (await journalEntries(journal)).length >= 2);
    expect(run.signal('SIGINT')).toBe(1);
    const finished = await run.finished;
    expect(finished.code, finished.stdout + finished.stderr).toBe(130);
    expect(finished.stdout).toMatch(/^Stopped: /m);
    expect(finished.stdout.trimEnd().split('\n').at(-1)).toMatch(/same command again .*--journal.* page \d+/);
  });
});
