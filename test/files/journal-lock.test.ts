// The journal's lock (src/files.ts, JournalLock) on its own: a lease (proper-lockfile's mkdir lock,
// its mtime renewed by the holder). One run holds a journal while its lease is fresh; a lock whose lease
// ran out is taken over by exactly one run however takeovers interleave; a holder whose lease is lost
// is told; anything at the lock's path that is not a lock of this command is refused (FileError: exit
// 2) and left as it is. Two runs in separate PID namespaces: test/cli/batch/world.matrix.test.ts.
import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FileError, JournalLock, LEASE_MS, type NamedFile } from '../../src/files.js';
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
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'journal-lock-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The owner file of a lock this process made: machine, process id, a nonce. */
const OURS = new RegExp(`^\\S+ ${process.pid} [0-9a-f]{16}\n$`);

/** What the passing of a lease's time does to a lock nobody renews. */
async function lapse(path: string): Promise<void> {
  const past = new Date(Date.now() - LEASE_MS - 5_000);
  await utimes(path, past, past);
}

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

describe('the lease', () => {
  it('makes the lock folder with its owner file (0600), refuses a second take, and removes it on release', async () => {
    const { file, lock } = await journal();
    const held = await JournalLock.take(file);
    expect((await lstat(lock)).isDirectory()).toBe(true);
    expect(await readFile(join(lock, 'owner'), 'utf8')).toMatch(OURS);
    expect((await stat(join(lock, 'owner'))).mode & 0o777).toBe(0o600);
    const second = await JournalLock.take(file).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(FileError);
    expect(second).toBeInstanceOf(UsageError);
    expect((second as Error).message).toMatch(/in use by another run \(its lease renewed \d+ s ago\)/);
    await held.release();
    await expect(lstat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a fresh lock is held whatever process id it names; one whose lease ran out is taken over', async () => {
    const { file, lock, folder } = await journal();
    await mkdir(lock);
    await writeFile(join(lock, 'owner'), 'another-machine 1 0123456789abcdef\n');
    await expect(JournalLock.take(file)).rejects.toThrow(/in use by another run/);
    await lapse(lock);
    const taken = await JournalLock.take(file);
    expect(await readFile(join(lock, 'owner'), 'utf8')).toMatch(OURS);
    await taken.release();
    // No claim left behind.
    expect(await readdir(folder)).toEqual([]);
  });

  it('renews its lease while held: the lock stays fresh past the lease, and nobody takes it', async () => {
    const { file, lock } = await journal();
    const held = await JournalLock.take(file, { renewMs: 1_000 });
    const first = (await stat(lock)).mtimeMs;
    // Renewed (polled, not timed: however late the timer runs under load).
    while ((await stat(lock)).mtimeMs <= first) await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(JournalLock.take(file)).rejects.toThrow(/in use/);
    expect(held.lost).toBeUndefined();
    await held.release();
  });

  it('tells the holder when its lease is lost (the lock removed or replaced): the run stops', async () => {
    const { file, lock } = await journal();
    const held = await JournalLock.take(file, { leaseMs: 2_000, renewMs: 1_000 });
    const lost = new Promise<FileError>((resolve) => {
      held.onLost = resolve;
    });
    await rm(lock, { recursive: true });
    const error = await lost;
    expect(error).toBeInstanceOf(FileError);
    expect(error.message).toContain(`the lock ${lock} was lost`);
    expect(held.lost).toBe(error);
    await held.release();
  });

  it('an earlier version’s lock (a process id in a file): fresh it is held, lapsed it is taken over', async () => {
    const { file, lock } = await journal();
    await writeFile(lock, `${process.pid} 0123456789abcdef\n`);
    await expect(JournalLock.take(file)).rejects.toThrow(/in use/);
    await lapse(lock);
    const taken = await JournalLock.take(file);
    expect((await lstat(lock)).isDirectory()).toBe(true);
    await taken.release();
  });
});

describe('taking over a lapsed lock: one run only', () => {
  it('many takeovers at once: exactly one holds the journal, every other is refused', async () => {
    const { file, lock } = await journal();
    await mkdir(lock);
    await lapse(lock);
    const { held, refused } = await outcome(Array.from({ length: 8 }, () => JournalLock.take(file)));
    expect(held).toHaveLength(1);
    expect(refused).toHaveLength(7);
    for (const error of refused) expect(error).toBeInstanceOf(FileError);
    await held[0]!.release();
  });

  it('a second run while the first holds the claim is refused, naming the claim', async () => {
    const { file, lock } = await journal();
    await mkdir(lock);
    await lapse(lock);
    let second: Promise<JournalLock> | undefined;
    const first = JournalLock.take(file, {
      steps: {
        claimed: async () => {
          second = JournalLock.take(file);
          await second.catch(() => undefined);
        },
      },
    });
    const { held, refused } = await outcome([first, first.then(() => second!)]);
    expect(held).toHaveLength(1);
    expect(String(refused[0])).toContain(`${lock}.takeover`);
    await held[0]!.release();
  });

  it('a second run entirely between the first finding it lapsed and acting: still one holder', async () => {
    const { file, lock } = await journal();
    await mkdir(lock);
    await lapse(lock);
    let second: JournalLock | undefined;
    const first = await JournalLock.take(file, {
      steps: {
        found: async () => {
          second = await JournalLock.take(file);
        },
      },
    }).catch((error: unknown) => error);
    // The second took it over and made its own; the first then finds a fresh lock: refused.
    expect(second).toBeInstanceOf(JournalLock);
    expect(first).toBeInstanceOf(FileError);
    expect(String(first)).toMatch(/in use/);
    await second!.release();
  });
});

describe('what is not a lock of this command', () => {
  it.each([
    ['a symbolic link', (path: string) => symlink(join(root, 'elsewhere'), path), 'symbolic link'],
    ['a file of other text', (path: string) => writeFile(path, 'not a pid\n'), 'holds no lock'],
    ['a FIFO (opened without waiting for a writer)', (path: string) => mkfifo(path), 'not a folder'],
  ])('%s: refused (exit 2), naming the lock and what to do, and left as it is', async (_name, plant, what) => {
    const { file, lock, folder } = await journal();
    await plant(lock);
    const error = await JournalLock.take(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect((error as Error).message).toContain(lock);
    expect((error as Error).message).toContain(what);
    expect((error as Error).message).toContain('remove it if no run is going on');
    expect(await readdir(folder)).toEqual(['j.lock']);
  });
});
