// The journal's lock (src/files.ts, JournalLock) on its own: one run holds a journal at a time, a lock
// left by a run that is gone is taken over by exactly one run however two takeovers interleave, and
// anything at the lock's path that is not a lock of this command is refused (FileError: exit 2) and
// left as it is.
import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FileError, JournalLock, type NamedFile } from '../../src/files.js';
import { UsageError } from '../../src/usage-error.js';

/** A FIFO at `path`, made by coreutils' mkfifo (Node has no call of its own for it). */
async function mkfifo(path: string): Promise<void> {
  const made = spawn('mkfifo', [path]);
  const code = await new Promise((resolve, reject) => {
    made.once('error', (error) => reject(new Error(`mkfifo is needed for this test (coreutils): ${error.message}`)));
    made.once('exit', resolve);
  });
  expect(code).toBe(0);
}

let root: string;
let deadPid: number;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'journal-lock-'));
  // The process id of a run that is gone: a child that has exited.
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => gone.once('exit', resolve));
  deadPid = gone.pid!;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A lock this process made: its id and a nonce of the lock's own. */
const OURS = new RegExp(`^${process.pid} [0-9a-f]{16}\n$`);

let count = 0;
/** A fresh folder for one case, and its journal as --journal names it. */
async function journal(): Promise<{ file: NamedFile; lock: string; folder: string }> {
  const folder = join(root, `case-${++count}`);
  await mkdir(folder);
  const path = join(folder, 'j');
  return { file: { flag: '--journal', path }, lock: `${path}.lock`, folder };
}

/** Settles every take: how many hold the journal, and the refusals of the others. */
async function outcome(takes: Promise<JournalLock>[]) {
  const settled = await Promise.allSettled(takes);
  const held = settled.filter((s) => s.status === 'fulfilled').map((s) => s.value);
  const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason as unknown);
  return { held, refused };
}

describe('one run holds a journal', () => {
  it('makes the lock 0600 with its process id, refuses a second take, and removes it on release', async () => {
    const { file, lock } = await journal();
    const first = await JournalLock.take(file);
    expect(await readFile(lock, 'utf8')).toMatch(OURS);
    expect((await lstat(lock)).mode & 0o777).toBe(0o600);
    const second = JournalLock.take(file);
    await expect(second).rejects.toBeInstanceOf(FileError);
    await expect(second).rejects.toThrow(`process ${process.pid}`);
    await first.release();
    await first.release();
    await expect(lstat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
    // Free again: taken and released once more.
    await (await JournalLock.take(file)).release();
  });

  it('refuses a lock with no process id yet (being written) without touching it', async () => {
    const { file, lock } = await journal();
    await writeFile(lock, '');
    const take = JournalLock.take(file);
    await expect(take).rejects.toBeInstanceOf(FileError);
    await expect(take).rejects.toThrow(`remove ${lock}`);
    expect(await readFile(lock, 'utf8')).toBe('');
  });

  it('a lock held by a process of another user (kill answers EPERM) is in use, not taken over', async () => {
    const { file, lock } = await journal();
    await writeFile(lock, `${deadPid}\n`);
    const kill = process.kill.bind(process);
    const asked = vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
      if (pid === deadPid) throw Object.assign(new Error(`kill EPERM`), { code: 'EPERM' });
      return kill(pid, signal);
    });
    const take = JournalLock.take(file);
    await expect(take).rejects.toBeInstanceOf(FileError);
    await expect(take).rejects.toThrow(`process ${deadPid}`);
    expect(asked).toHaveBeenCalledWith(deadPid, 0);
    expect(await readFile(lock, 'utf8')).toBe(`${deadPid}\n`);
  });

  it('a lock gone between seeing it and reading it (its run ended): tried again, and taken', async () => {
    const { file, lock } = await journal();
    await writeFile(lock, `${process.pid}\n`);
    let found = 0;
    const taken = await JournalLock.take(file, {
      seen: () => rm(lock, { force: true }),
      found: async () => {
        found += 1;
      },
    });
    expect(found).toBe(0);
    expect(await readFile(lock, 'utf8')).toMatch(OURS);
    await taken.release();
  });

  it('lets an error other than "exists" through as it is: a journal in a folder that does not exist', async () => {
    const { file } = await journal();
    await expect(JournalLock.take({ ...file, path: `${file.path}-missing/j` })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('release leaves a lock that another run made in its place', async () => {
    const { file, lock } = await journal();
    const mine = await JournalLock.take(file);
    // Removed under it, and made again by another run of this same process id.
    await rm(lock);
    const other = await JournalLock.take(file);
    await mine.release();
    expect(await readFile(lock, 'utf8')).toMatch(OURS);
    await other.release();
    await expect(lstat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a lock left by a run that is gone', () => {
  it.each([
    ['an earlier version’s lock (the process id alone)', (pid: number) => `${pid}\n`],
    ['a process id without a line break', (pid: number) => String(pid)],
    ['a lock of this version (process id and nonce)', (pid: number) => `${pid} 0123456789abcdef\n`],
  ])('%s is read as the lock of a run that is gone, and taken over', async (_name, text) => {
    const { file, lock } = await journal();
    await writeFile(lock, text(deadPid));
    const taken = await JournalLock.take(file);
    expect(await readFile(lock, 'utf8')).toMatch(OURS);
    await taken.release();
  });

  it('is taken over: the new lock holds this process id, and no claim is left behind', async () => {
    const { file, lock, folder } = await journal();
    await writeFile(lock, `${deadPid}\n`);
    const taken = await JournalLock.take(file);
    expect(await readFile(lock, 'utf8')).toMatch(OURS);
    expect(await readdir(folder)).toEqual(['j.lock']);
    await taken.release();
    expect(await readdir(folder)).toEqual([]);
  });

  it('two takeovers, the second run entirely between the first finding it stale and acting: one holds it', async () => {
    const { file, lock, folder } = await journal();
    await writeFile(lock, `${deadPid}\n`);
    let second: Promise<JournalLock> | undefined;
    const first = JournalLock.take(file, {
      found: async () => {
        second = JournalLock.take(file);
        await second.catch(() => undefined);
      },
    });
    await first.catch(() => undefined);
    const { held, refused } = await outcome([first, second!]);
    expect(held).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(FileError);
    // The second took it over; the first, finding that lock in place of the stale one, left it.
    await expect(second).resolves.toBeInstanceOf(JournalLock);
    expect(await readFile(lock, 'utf8')).toMatch(OURS);
    await held[0]!.release();
    expect(await readdir(folder)).toEqual([]);
  });

  it('two takeovers, the second run while the first holds the claim: the second is refused, naming the claim', async () => {
    const { file, lock, folder } = await journal();
    await writeFile(lock, `${deadPid}\n`);
    let second: Promise<JournalLock> | undefined;
    const first = JournalLock.take(file, {
      claimed: async () => {
        second = JournalLock.take(file);
        await second.catch(() => undefined);
      },
    });
    await expect(first).resolves.toBeInstanceOf(JournalLock);
    await expect(second).rejects.toBeInstanceOf(FileError);
    await expect(second).rejects.toThrow(`${lock}.takeover`);
    expect(await readdir(folder)).toEqual(['j.lock']);
    await (await first).release();
  });

  it('the second run between the first claiming and checking, then releasing: still one holder', async () => {
    // The first finds it stale and pauses; a second takes it over and holds it; a third, run while the
    // first holds the claim, is refused. The first then finds a lock that is not the stale one, leaves it.
    const { file, lock } = await journal();
    await writeFile(lock, `${deadPid}\n`);
    const others: Promise<JournalLock>[] = [];
    const first = JournalLock.take(file, {
      found: async () => {
        others.push(JournalLock.take(file));
        await others[0]!.catch(() => undefined);
      },
      claimed: async () => {
        others.push(JournalLock.take(file));
        await others[1]!.catch(() => undefined);
      },
    });
    await first.catch(() => undefined);
    const { held, refused } = await outcome([first, ...others]);
    expect(held).toHaveLength(1);
    expect(refused).toHaveLength(2);
    await expect(others[0]).resolves.toBeInstanceOf(JournalLock);
    await held[0]!.release();
    await expect(lstat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('many takeovers at once: exactly one holds the journal, every other is refused', async () => {
    const { file, lock, folder } = await journal();
    await writeFile(lock, `${deadPid}\n`);
    const { held, refused } = await outcome(Array.from({ length: 12 }, () => JournalLock.take(file)));
    expect(held).toHaveLength(1);
    expect(refused).toHaveLength(11);
    for (const error of refused) expect(error).toBeInstanceOf(FileError);
    expect(await readdir(folder)).toEqual(['j.lock']);
    await held[0]!.release();
  });
});

describe('something at the lock path that is no lock of this command', () => {
  it.each([
    ['text that is no process id', async (lock: string) => writeFile(lock, 'hello\n'), 'holds no process id'],
    ['a process id too long', async (lock: string) => writeFile(lock, '12345678901\n'), 'holds no process id'],
    ['a process id with more after it', async (lock: string) => writeFile(lock, `${deadPid}\nmore`), 'no process id'],
    [
      'the longest process id and nonce, with more after them',
      async (lock: string) => writeFile(lock, '4294967295 0123456789abcdef\nmore'),
      'no process id',
    ],
    ['a symbolic link', async (lock: string) => symlink(`${lock}-target`, lock), 'symbolic link'],
    ['a FIFO (opened without waiting for a writer)', async (lock: string) => mkfifo(lock), 'not a regular file'],
    ['a folder', async (lock: string) => mkdir(lock), 'is a folder'],
  ])('%s: refused (exit 2), naming the lock and what to do, and left as it is', async (_name, plant, what) => {
    const { file, lock, folder } = await journal();
    await plant(lock);
    const before = await readdir(folder);
    const kind = async () => {
      const stats = await lstat(lock);
      return [stats.isSymbolicLink(), stats.isDirectory(), stats.isFile() ? await readFile(lock, 'utf8') : ''];
    };
    const was = await kind();
    const take = JournalLock.take(file);
    await expect(take).rejects.toBeInstanceOf(UsageError);
    const error = (await take.catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`--journal ${file.path}`);
    expect(error.message).toContain(lock);
    expect(error.message).toContain(what);
    expect(error.message).toContain('remove it');
    expect(await readdir(folder)).toEqual(before);
    expect(await kind()).toEqual(was);
  });
});
