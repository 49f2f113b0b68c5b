// The batch commands' files (src/files.ts): a link is never followed where a file is
// written, an existing file that is not the command's own is never replaced, input, output, journal
// and report are different files however spelt, a report is renamed into place, data files are 0600,
// and a journal is held by one run at a time. Every refusal is exit 2, sends nothing and leaves every
// file as it was.
import { link, lstat, mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { LEASE_MS } from '../../../src/files.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { capture } from '../in-process.js';
import {
  type CountingSandbox,
  countingSandbox,
  journalEntries,
  killChildren,
  runMain,
  startCli,
  tempDir,
  until,
  updateLine,
} from './harness.js';

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 60, keysPerAccount: 1 });
  dir = await tempDir();
});
afterEach(killChildren);
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

const client = () => sandbox.sandbox.clients[0]!;
const run = async (...args: string[]) => {
  const io = capture();
  const before = sandbox.requests.length;
  const code = await main([...args, '--base-url', sandbox.url, '--token', client().token], COMMANDS, io);
  return { code, err: io.stderr.join('\n'), out: io.stdout.join('\n'), sent: sandbox.requests.length - before };
};

let count = 0;
/** A fresh folder for one case. */
const folder = async () => {
  const path = dir.file(`case-${++count}`);
  await mkdir(path);
  return (name: string) => `${path}/${name}`;
};

const inputOf = (lines: number) =>
  client()
    .accounts.slice(0, lines)
    .map((account, i) => updateLine(account, { socialName: `Files ${i + 1}` }))
    .join('\n');

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('files named twice', () => {
  it('refuses --report equal to --input, however spelt, and leaves the input as it was', async () => {
    const at = await folder();
    const input = at('in.jsonl');
    await writeFile(input, inputOf(3));
    await symlink(input, at('link.jsonl'));
    for (const report of [input, `${at('')}../${at('').split('/').at(-2)}/in.jsonl`, at('link.jsonl')]) {
      const result = await run('update-many', '--input', input, '--report', report);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/--report .*--input/);
      expect(result.sent).toBe(0);
    }
    // A report named by a link to the input: same refusal, the input read through its link.
    const linked = await run('update-many', '--input', at('link.jsonl'), '--journal', input);
    expect(linked.code).toBe(2);
    expect(await readFile(input, 'utf8')).toBe(inputOf(3));
  });

  it('refuses --journal equal to --out or --report in export-keys', async () => {
    const at = await folder();
    const same = await run('export-keys', '--out', at('keys.jsonl'), '--journal', at('keys.jsonl'));
    expect(same.code).toBe(2);
    expect(same.err).toMatch(/--journal .*--out/);
    const report = await run('export-keys', '--out', at('keys.jsonl'), '--report', at('r'), '--journal', at('r'));
    expect(report.code).toBe(2);
    expect(same.sent + report.sent).toBe(0);
    expect(await readdir(at(''))).toEqual([]);
  });
});

describe('links and files not the command’s own', () => {
  it('never writes through a link at --out, --report or --journal', async () => {
    const at = await folder();
    await writeFile(at('precious'), 'keep me');
    await symlink(at('precious'), at('link'));
    for (const args of [
      ['export-keys', '--out', at('link')],
      ['export-keys', '--out', at('keys.jsonl'), '--report', at('link')],
      ['export-keys', '--out', at('keys.jsonl'), '--journal', at('link')],
    ]) {
      const result = await run(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err).toMatch(/symbolic link/);
      expect(result.sent).toBe(0);
    }
    expect(await readFile(at('precious'), 'utf8')).toBe('keep me');
    expect((await lstat(at('link'))).isSymbolicLink()).toBe(true);
    expect((await readdir(at(''))).sort()).toEqual(['link', 'precious']);
  });

  it('never replaces an existing --out, nor a --report that is not a report', async () => {
    const at = await folder();
    await writeFile(at('keys.jsonl'), 'mine');
    const out = await run('export-keys', '--out', at('keys.jsonl'));
    expect(out.code).toBe(2);
    expect(out.err).toContain('--out');
    // Nor with a new journal, which is then not even started.
    const journaled = await run('export-keys', '--out', at('keys.jsonl'), '--journal', at('j'));
    expect(journaled.code).toBe(2);
    expect(journaled.err).toContain('--out');
    await writeFile(at('notes.json'), '{"mine":true}');
    const report = await run('export-keys', '--out', at('new.jsonl'), '--report', at('notes.json'));
    expect(report.code).toBe(2);
    expect(report.err).toContain('--report');
    expect(out.sent + journaled.sent + report.sent).toBe(0);
    expect(await readFile(at('keys.jsonl'), 'utf8')).toBe('mine');
    expect(await readFile(at('notes.json'), 'utf8')).toBe('{"mine":true}');
    expect((await readdir(at(''))).sort()).toEqual(['keys.jsonl', 'notes.json']);
  });
});

describe('files written', () => {
  it('creates output, journal and report 0600, and renames a new report of the same journal into the place of the old', async () => {
    const at = await folder();
    const args = ['export-keys', '--out', at('keys.csv'), '--journal', at('j'), '--report', at('report.json')];
    const first = await run(...args);
    expect(first.code, first.err).toBe(0);
    for (const name of ['keys.csv', 'j', 'report.json']) expect(await mode(at(name)), name).toBe(0o600);
    // Another journal's run never replaces it (issue 36: a report is replaced only by its own journal's runs).
    await writeFile(at('in.jsonl'), inputOf(2));
    const other = await run(
      'update-many',
      '--input',
      at('in.jsonl'),
      '--journal',
      at('j2'),
      '--report',
      at('report.json'),
    );
    expect(other.code).toBe(2);
    expect(other.err).toContain('not a report this journal wrote');
    expect(other.sent).toBe(0);
    await rm(at('j2'), { force: true });
    // A rerun's report (same journal) is a new file renamed into the place of the old one.
    const update = ['update-many', '--input', at('in.jsonl'), '--journal', at('j3'), '--report', at('report2.json')];
    expect((await run(...update)).code).toBe(0);
    const before = await stat(at('report2.json'));
    const second = await run(...update);
    expect(second.code, second.err).toBe(0);
    const after = await stat(at('report2.json'));
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(at('report2.json'), 'utf8')).settings.command).toBe('update-many');
    await rm(at('j3'));
    await rm(at('report2.json'));
    // No temporary file and no lock left behind.
    expect((await readdir(at(''))).sort()).toEqual(['in.jsonl', 'j', 'keys.csv', 'report.json']);
  });

  it('writes an export without a journal whole: 0600, in place only at the end', async () => {
    const at = await folder();
    const result = await run('export-keys', '--out', at('keys.jsonl'));
    expect(result.code, result.err).toBe(0);
    expect(await mode(at('keys.jsonl'))).toBe(0o600);
    expect((await readFile(at('keys.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(60);
    expect(await readdir(at(''))).toEqual(['keys.jsonl']);
    // A run that fails keeps nothing, not even its temporary file.
    const io = capture();
    const failed = await main(
      ['export-keys', '--out', at('none.jsonl'), '--base-url', 'http://127.0.0.1:1', '--token', client().token],
      COMMANDS,
      io,
    );
    expect(failed).toBe(1);
    expect(await readdir(at(''))).toEqual(['keys.jsonl']);
  });
});

describe('one run per journal', () => {
  it('refuses a second update-many on a journal in use: exit 2, every line sent once, no line torn', async () => {
    const at = await folder();
    const lines = 60;
    await writeFile(at('in.jsonl'), inputOf(lines));
    const args = ['update-many', '--input', at('in.jsonl'), '--base-url', sandbox.url, '--journal', at('j')];
    const env = { BAAS_TOKEN: client().token };
    const puts = () => sandbox.requests.filter((line) => line.startsWith('PUT ')).length;
    const before = puts();
    // Paced to take two minutes, so it holds the journal while the second run starts and ends; then stopped.
    const first = startCli([...args, '--rate', '0.5'], env);
    await until(async () => (await journalEntries(at('j'))).length >= 1);
    // The second and third runs in process: the lock is held by another process all the same.
    const second = await runMain(args, env);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/--journal .* in use/);
    first.child.kill('SIGINT');
    expect((await first.finished).code).toBe(130);
    // Released at the end: a third run goes on from the journal and sends the rest.
    const third = await runMain(args, env);
    expect(third.code, third.stderr).toBe(0);
    expect(puts() - before).toBe(lines);
    const entries = await journalEntries(at('j'));
    expect([...new Set(entries.map((entry) => entry.line))].sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: lines }, (_, i) => i + 1),
    );
  });

  it('takes over a lock whose lease ran out (its run is gone), whatever process id it names', async () => {
    const at = await folder();
    await writeFile(at('in.jsonl'), inputOf(2));
    // A lock folder as proper-lockfile makes it, not renewed for longer than the lease.
    await mkdir(at('j.lock'));
    await writeFile(at('j.lock/owner'), `elsewhere ${process.pid} 0123456789abcdef\n`);
    const past = new Date(Date.now() - LEASE_MS - 5_000);
    await utimes(at('j.lock'), past, past);
    const result = await run('update-many', '--input', at('in.jsonl'), '--journal', at('j'));
    expect(result.code, result.err).toBe(0);
    expect(await readdir(at(''))).not.toContain('j.lock');
    // An earlier version's lock (a process id in a file) is its age too: fresh, it is held, old, taken over.
    await writeFile(at('j.lock'), '1\n');
    const held = await run('update-many', '--input', at('in.jsonl'), '--journal', at('j'));
    expect(held.code).toBe(2);
    expect(held.err).toMatch(/in use by another run \(its lease renewed \d+ s ago\)/);
    await utimes(at('j.lock'), past, past);
    const taken = await run('update-many', '--input', at('in.jsonl'), '--journal', at('j'));
    expect(taken.code, taken.err).toBe(0);
  });

  it('refuses a lock path holding no lock of the command (a link, other text) or a fresh lock: exit 2, nothing sent', async () => {
    const at = await folder();
    await writeFile(at('in.jsonl'), inputOf(2));
    const plants: [string, () => Promise<unknown>][] = [
      ['in use by another run', () => mkdir(at('j.lock'))],
      ['symbolic link', () => symlink(at('elsewhere'), at('j.lock'))],
      ['holds no lock', () => writeFile(at('j.lock'), 'not a pid\n')],
    ];
    for (const [what, plant] of plants) {
      await plant();
      const refused = await run('update-many', '--input', at('in.jsonl'), '--journal', at('j'));
      expect(refused.code).toBe(2);
      expect(refused.sent).toBe(0);
      expect(refused.err).toContain(`${at('j.lock')}`);
      expect(refused.err).toContain(what);
      expect(await readdir(at(''))).toEqual(['in.jsonl', 'j.lock']);
      await rm(at('j.lock'), { recursive: true });
    }
  });

  it('a journal belongs to one input: another input is refused (exit 2) naming both; nothing sent', async () => {
    const at = await folder();
    await writeFile(at('a.jsonl'), inputOf(2));
    await writeFile(at('b.jsonl'), inputOf(2));
    expect((await run('update-many', '--input', at('a.jsonl'), '--journal', at('j'))).code).toBe(0);
    const other = await run('update-many', '--input', at('b.jsonl'), '--journal', at('j'));
    expect(other.code).toBe(2);
    expect(other.sent).toBe(0);
    expect(other.err).toContain(`is the journal of --input ${at('a.jsonl')}, not of ${at('b.jsonl')}`);
    // Its header records the input: place, size, SHA-256, and the command.
    const header = JSON.parse((await readFile(at('j'), 'utf8')).split('\n')[0]!);
    expect(header).toMatchObject({ journal: 'update-many', version: 2, command: 'update-many' });
    expect(header.input).toMatchObject({ path: at('a.jsonl'), size: inputOf(2).length });
    expect(header.input.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an empty file hard-linked at --journal is not the command’s own: refused, nothing written or sent', async () => {
    const at = await folder();
    await writeFile(at('in.jsonl'), inputOf(2));
    await writeFile(at('theirs'), '');
    await link(at('theirs'), at('j'));
    const refused = await run('update-many', '--input', at('in.jsonl'), '--journal', at('j'));
    expect(refused.code).toBe(2);
    expect(refused.sent).toBe(0);
    expect(refused.err).toContain('has 2 names (hard links)');
    expect(await readFile(at('theirs'), 'utf8')).toBe('');
  });

  it('holds an export-keys journal the same way', async () => {
    const at = await folder();
    await mkdir(at('j.lock'));
    const held = await run('export-keys', '--out', at('keys.jsonl'), '--journal', at('j'));
    expect(held.code).toBe(2);
    expect(held.err).toMatch(/--journal .* in use/);
    expect(held.sent).toBe(0);
    expect(await readdir(at(''))).toEqual(['j.lock']);
  });
});
