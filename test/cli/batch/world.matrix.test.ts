// The batch commands against what the world makes (issue 34's files, issue 36's pipeline and file
// errors): two runs in separate PID namespaces (`unshare --pid --fork`, as two containers on one
// volume), a full disk (a small tmpfs), a read-only folder (a tmpfs remounted read-only: root ignores
// permission bits), and real pipes into `head`. They need root (mount, unshare), as CI has; without it
// they fail saying so, never skip.
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../scripts/lib/paths.mjs';
import {
  type CountingSandbox,
  countingSandbox,
  type Finished,
  killChildren,
  runCli,
  tempDir,
  until,
  updateLine,
} from './harness.js';
import { SHOWN_PROBLEMS } from '../../../src/cli/batch/update-many-run.js';
import { cliCommand } from '../../support/cli.js';

const LINES = 400;
let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
const mounts: string[] = [];

function needRoot(what: string): void {
  if (process.getuid?.() !== 0)
    throw new Error(`${what} needs root (mount and unshare): run the suite as root, as CI does`);
}

/** A tmpfs of `size` at a new folder; unmounted after the file's tests. */
async function tmpfs(size: string): Promise<string> {
  needRoot('a small tmpfs (a full disk, a read-only folder)');
  const at = await mkdtemp(join(tmpdir(), 'world-mount-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', at]);
  mounts.push(at);
  return at;
}

/** `baas-pix-contract ...args` (test/support/cli.ts) after `prefix` (unshare), its output collected. */
function startUnder(prefix: string[], args: string[], env: Record<string, string>) {
  const [node, cliArgs] = cliCommand(args);
  const child = spawn(prefix[0]!, [...prefix.slice(1), node, ...cliArgs], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const finished = new Promise<Finished>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, finished };
}

/** Runs `command | reader` in bash; resolves with the command's own status (PIPESTATUS) and its stderr. */
function piped(command: string[], reader: string): Promise<{ status: number; stderr: string; read: string }> {
  const quoted = command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `${quoted} 2>"$ERRFILE" | ${reader}; echo "status=\${PIPESTATUS[0]}" >&2`;
  return new Promise((resolve, reject) => {
    const errFile = join(dir.path, `err-${Math.random().toString(16).slice(2)}`);
    const child = spawn('bash', ['-c', script], {
      cwd: repoRoot,
      env: { ...process.env, ERRFILE: errFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let read = '';
    let status = '';
    child.stdout.on('data', (chunk: Buffer) => (read += chunk));
    child.stderr.on('data', (chunk: Buffer) => (status += chunk));
    child.once('error', reject);
    child.once('close', async () => {
      const { readFile } = await import('node:fs/promises');
      const stderr = await readFile(errFile, 'utf8').catch(() => '');
      resolve({ status: Number(/status=(\d+)/.exec(status)?.[1]), stderr, read });
    });
  });
}

const cli = cliCommand([]).flat();
/** What a stack trace or Node's own error report looks like. */
const CRASH = /\n\s+at |Unhandled|node:internal|EPIPE|ERR_/;

let input: string;
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: LINES, keysPerAccount: 0 });
  dir = await tempDir();
  input = dir.file('input.jsonl');
  await writeFile(
    input,
    sandbox.sandbox.clients[0]!.accounts.map((a, i) => updateLine(a, { socialName: `World ${i + 1}` })).join('\n'),
  );
});
afterEach(() => {
  killChildren();
  sandbox.release();
});
afterAll(async () => {
  for (const at of mounts.reverse()) {
    execFileSync('umount', ['-l', at]);
    await rm(at, { recursive: true, force: true });
  }
  await sandbox?.stop();
  await dir?.remove();
});

const token = () => ({ BAAS_TOKEN: sandbox.sandbox.clients[0]!.token });
const sentTwice = () => [...sandbox.updated.values()].filter((count) => count > 1).length;

describe('two containers on one volume (separate PID namespaces)', () => {
  it('exactly one of two runs holds the journal; the other is refused before sending', async () => {
    needRoot('unshare --pid --fork');
    sandbox.updated.clear();
    const journal = dir.file('shared-journal');
    const args = ['update-many', '--input', input, '--base-url', sandbox.url, '--journal', journal];
    // The holder answers 20 lines and is then held: it is running when the other one looks.
    sandbox.holdAfter(20);
    const runs = [0, 1].map(() => startUnder(['unshare', '--pid', '--fork'], args, token()));
    const first = await Promise.race(runs.map((run, index) => run.finished.then((done) => ({ done, index }))));
    expect(first.done.code, first.done.stderr).toBe(2);
    expect(first.done.stderr).toMatch(/--journal .* is in use by another run/);
    sandbox.release();
    const other = await runs[1 - first.index]!.finished;
    expect(other.stderr).not.toMatch(CRASH);
    expect(sentTwice()).toBe(0);
  });
});

describe('a full disk under --journal', () => {
  it('stops before sending more, prints the summary and how to go on, exits 2; a rerun sends each line once', async () => {
    // Enough lines that the journal outgrows its reserve (64 KiB written ahead): about 60 bytes a line.
    const lines = 1600;
    const big = await countingSandbox({ clients: 1, accountsPerClient: lines, keysPerAccount: 0 });
    try {
      const bigInput = dir.file('big.jsonl');
      await writeFile(
        bigInput,
        big.sandbox.clients[0]!.accounts.map((a, i) => updateLine(a, { socialName: `Disk ${i + 1}` })).join('\n'),
      );
      const disk = await tmpfs('512k');
      const journal = join(disk, 'journal');
      // Room for the reserve and a little more, not for every entry.
      const { bavail, bsize } = await statfs(disk);
      await writeFile(join(disk, 'filler'), Buffer.alloc(Math.max(0, Number(bavail * bsize) - 72 * 1024)));
      const args = [
        'update-many',
        '--input',
        bigInput,
        '--base-url',
        big.url,
        '--journal',
        journal,
        '--concurrency',
        '16',
      ];
      const env = { BAAS_TOKEN: big.sandbox.clients[0]!.token };
      const full = await runCli(args, env);
      expect(full.code, full.stderr).toBe(2);
      expect(full.stderr).not.toMatch(CRASH);
      expect(full.stderr).toContain(`--journal ${journal}: no space left on the device that holds ${disk}`);
      expect(full.stdout).toMatch(/to go on: make the file writable \(free space on its disk\)/);
      expect(big.updated.size).toBeLessThan(lines);
      // Every outcome of the first run is in its journal: nothing sent is left unrecorded.
      expect(full.stderr).not.toContain('could not be recorded');
      // Space again: the rerun sends exactly the lines the first did not, none twice.
      await rm(join(disk, 'filler'));
      const rerun = await runCli(args, env);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(big.updated.size).toBe(lines);
      expect([...big.updated.values()].filter((count) => count > 1)).toEqual([]);
    } finally {
      await big.stop();
    }
  });
});

describe('a read-only folder', () => {
  it('export-keys --out in it: exit 2 naming the folder, nothing fetched, nothing left', async () => {
    const ro = await tmpfs('1m');
    execFileSync('mount', ['-o', 'remount,ro', ro]);
    const before = sandbox.requests.length;
    const out = join(ro, 'keys.jsonl');
    const refused = await runCli(['export-keys', '--out', out, '--base-url', sandbox.url], token());
    expect(refused.code).toBe(2);
    // The user's file by its name (never our temporary file or lock), the cause in words, its code beside them.
    expect(refused.stderr).toContain(`--out ${out}: its folder ${ro} is on a read-only file system (EROFS)`);
    expect(refused.stderr).not.toMatch(/\.tmp|\.lock/);
    expect(sandbox.requests.length).toBe(before);
    expect(await readdir(ro)).toEqual([]);
  });

  it('docs --out in it names the cause (read-only), not ENOENT', async () => {
    const ro = await tmpfs('1m');
    execFileSync('mount', ['-o', 'remount,ro', ro]);
    const refused = await runCli(['docs', '--out', join(ro, 'site')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('read-only file system (EROFS)');
    expect(refused.stderr).not.toMatch(/ENOENT/);
  });
});

describe('a second export to an output another run is writing', () => {
  it('is refused before it fetches anything, and leaves no file behind', async () => {
    const at = join(dir.path, 'two-exports');
    await mkdir(at);
    const out = join(at, 'keys.jsonl');
    sandbox.holdAfter(0, 'GET');
    const first = startUnder(
      ['unshare', '--pid', '--fork'],
      ['export-keys', '--out', out, '--base-url', sandbox.url],
      token(),
    );
    await until(async () => (await readdir(at)).includes('keys.jsonl.lock'));
    const before = sandbox.requests.length;
    const second = await runCli(['export-keys', '--out', out, '--base-url', sandbox.url], token());
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/--out .* is in use by another run/);
    expect(sandbox.requests.length).toBe(before);
    first.child.kill('SIGTERM');
    await first.finished;
    sandbox.release();
  });
});

describe('a closed pipe (`| head`)', () => {
  it('sandbox --list | head -1: quiet, stopped, exit 141', async () => {
    const result = await piped([...cli, 'sandbox', '--list', '--clients', '500', '--port', '0'], 'head -1');
    expect(result.read).toMatch(/^Seed /);
    expect(result.stderr).not.toMatch(CRASH);
    expect(result.status).toBe(141);
  });

  it('update-many --dry-run: 4,000 bad lines give the first problems and a count, never a line each', async () => {
    const bad = dir.file('bad.jsonl');
    await writeFile(bad, Array.from({ length: 4000 }, () => '{}').join('\n'));
    const result = await piped([...cli, 'update-many', '--input', bad, '--dry-run'], 'cat');
    expect(result.stderr).not.toMatch(CRASH);
    expect(result.status).toBe(1);
    const lines = result.read.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(SHOWN_PROBLEMS + 2);
    expect(result.read).toMatch(/… and [\d,]+ more problems; run with --report FILE to list them all/);
  });
});
