// Files the command line must make where the system will not let it: the real command line in a real
// process against a counting sandbox. The cause is said before anything is sent, last, naming the flag,
// the path and what the system said (src/files.ts, the one file layer), and the run exits 2. Linux's
// /proc and /sys refuse a new entry even to root, so these hold whoever runs the tests.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CountingSandbox, countingSandbox, killChildren, runCli, tempDir, updateLine } from './batch/harness.js';

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 1, keysPerAccount: 1 });
  dir = await tempDir();
});
afterEach(killChildren);
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

const PROC_REFUSES =
  'cannot be created in /proc: the system says ENOENT (no such file or directory) though the folder exists, as a special file system such as /proc or /sys does; choose a folder you can write to';
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Runs `args` (the token of the sandbox's client given); the last line of stderr, the status, what was sent. */
async function refused(args: string[], command: string, said: string | RegExp): Promise<void> {
  const before = sandbox.requests.length;
  const ran = await runCli([...args, '--base-url', sandbox.url], { BAAS_TOKEN: sandbox.sandbox.clients[0]!.token });
  expect(ran.code, ran.stdout + ran.stderr).toBe(2);
  const last = ran.stderr.trimEnd().split('\n').at(-1)!;
  const prefix = `baas-pix-contract ${command}: `;
  expect(last.startsWith(prefix), last).toBe(true);
  expect(last.slice(prefix.length)).toMatch(typeof said === 'string' ? new RegExp(`^${escaped(said)}$`) : said);
  // Said before the run: no request went out.
  expect(sandbox.requests.length).toBe(before);
}

describe.runIf(existsSync('/proc/self') && existsSync('/sys/kernel'))('a file where none can be made', () => {
  it('verify --report /proc/…: ENOENT in a folder that exists is no missing folder; no table printed', async () => {
    await refused(['verify', '--report', '/proc/report.json'], 'verify', `--report /proc/report.json: ${PROC_REFUSES}`);
  });

  it('verify --report /sys/…: the system’s refusal, by its code', async () => {
    // sysfs says EACCES; mounted read-only (as in many containers), EROFS.
    await refused(
      ['verify', '--report', '/sys/kernel/report.json'],
      'verify',
      /^--report \/sys\/kernel\/report\.json: (permission denied \(EACCES\) in \/sys\/kernel; choose a folder you can write to, or ask for write permission|its folder \/sys\/kernel is on a read-only file system \(EROFS\); choose a folder you can write to)$/,
    );
  });

  it('update-many --journal /proc/…: its lock is said of the journal’s flag and name (the lock is ours)', async () => {
    const input = dir.file('one.jsonl');
    const account = sandbox.sandbox.clients[0]!.accounts[0]!;
    await writeFile(input, `${updateLine(account, { socialName: 'Proc' })}\n`);
    await refused(
      ['update-many', '--input', input, '--journal', '/proc/journal'],
      'update-many',
      `--journal /proc/journal: ${PROC_REFUSES}`,
    );
  });

  it('docs --out /proc/a/b: said at once (a recursive mkdir there never returns)', async () => {
    const ran = await runCli(['docs', '--out', '/proc/a/b']);
    expect([ran.code, ran.stderr.trimEnd().split('\n').at(-1)]).toEqual([
      2,
      `baas-pix-contract docs: --out /proc/a/b: ${PROC_REFUSES}`,
    ]);
  }, 15_000);
});
