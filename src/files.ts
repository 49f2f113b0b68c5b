// The one file layer of the command line: every file it writes (update-many's and export-keys' journals,
// their locks, reports and export output; verify's --report; the docs page) is opened here, and nowhere
// else. What it promises:
// - a symbolic link is never followed where a file is written (lstat, then O_NOFOLLOW), so a link
//   planted at --out or --report cannot redirect the write onto another file;
// - an existing file is never replaced unless it is this command's own (a report it wrote, a journal
//   and the output it records); anything else is refused before a byte is written;
// - the files a run names (input, output, journal, report) are different files, however spelt;
// - a whole-file write goes to a temporary file beside it and is renamed into place when complete;
// - files holding data are created readable and writable by their owner only (0600);
// - one journal is held by one run at a time (a lock file made with O_EXCL; a stale one taken over by
//   one run only);
// - scratch files (the docs page's input for Redocly) live in a private folder of their own (0700),
//   are created new (O_EXCL) and are removed with it, whatever happens.
// Refusals are FileErrors: usage errors (exit 2) naming the flag, the file and what to do.
import { createHash, type Hash, randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import {
  type FileHandle,
  link,
  lstat,
  mkdir,
  mkdtemp,
  open,
  realpath,
  rename,
  rm,
  stat,
  unlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/** Owner read and write, nobody else: journals, reports and exported keys hold personal data. */
export const DATA_FILE_MODE = 0o600;

const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A file the command cannot use as asked: a usage error (exit 2). Nothing was written. */
export class FileError extends UsageError {
  override name = 'FileError';
}

/** A file as the command line names it: the flag that named it, and the path given. */
export interface NamedFile {
  flag: string;
  path: string;
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

const named = (file: NamedFile): string => `${file.flag} ${file.path}`;

async function lstatOrMissing(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The file's place, however it is spelt (relative, `..`, a linked folder): the real path of its folder
 * and its name. What a journal records, and how two names are compared.
 */
export async function placeOf(file: NamedFile): Promise<string> {
  const absolute = resolve(file.path);
  try {
    return join(await realpath(dirname(absolute)), basename(absolute));
  } catch (error) {
    if (codeOf(error) === 'ENOENT') throw new FileError(`${named(file)}: its folder does not exist; create it first`);
    throw error;
  }
}

/**
 * Refuses two flags naming one file: the same place, or (for files that exist) the same device and
 * inode, through a link or a second name. `--report` equal to `--input` would replace the input.
 */
export async function distinctFiles(files: readonly NamedFile[]): Promise<void> {
  const seen: { file: NamedFile; place: string; inode: string | undefined }[] = [];
  for (const file of files) {
    const place = await placeOf(file);
    let inode: string | undefined;
    try {
      const stats = await stat(file.path);
      inode = `${stats.dev}:${stats.ino}`;
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
    const same = seen.find((other) => other.place === place || (inode !== undefined && other.inode === inode));
    if (same)
      throw new FileError(
        `${named(file)} is the same file as ${named(same.file)}; give each of ${same.file.flag} and ${file.flag} a file of its own`,
      );
    seen.push({ file, place, inode });
  }
}

/** A folder (or a device, a pipe) where the command writes a file: what it is, and what to give instead. */
const notAFile = (file: NamedFile, stats: Stats): string =>
  `${named(file)} is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}; give the name of a file to write`;

/**
 * Checks a file the command is to write: not a symbolic link, and a regular file if it exists.
 * Resolves with its stats, or undefined when it does not exist yet.
 */
export async function writableFile(file: NamedFile): Promise<Stats | undefined> {
  const stats = await lstatOrMissing(file.path);
  if (stats?.isSymbolicLink())
    throw new FileError(`${named(file)} is a symbolic link, which is never followed; name the file itself`);
  if (stats && !stats.isFile()) throw new FileError(notAFile(file, stats));
  return stats;
}

const refusedLink = (file: NamedFile, error: unknown): unknown =>
  codeOf(error) === 'ELOOP'
    ? new FileError(`${named(file)} is a symbolic link, which is never followed; name the file itself`)
    : error;

/** Creates `file`, which must not exist: 0600, never through a link. */
export async function createNew(file: NamedFile, whatToDo: string): Promise<FileHandle> {
  try {
    return await open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, DATA_FILE_MODE);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') throw new FileError(`${named(file)} exists already; ${whatToDo}`);
    throw refusedLink(file, error);
  }
}

/** Opens a file of this run's own (a journal, a resumed output) to append to it: never through a link. */
export async function openOwn(file: NamedFile): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file.path, O_WRONLY | O_APPEND | O_NOFOLLOW);
  } catch (error) {
    throw refusedLink(file, error);
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new FileError(notAFile(file, stats));
  }
  return handle;
}

/** The file's bytes (from `start`, up to `end` inclusive), streamed, never through a link. */
export async function* readBytes(
  file: NamedFile,
  range: { start?: number; end?: number } = {},
): AsyncGenerator<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(file.path, O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    throw refusedLink(file, error);
  }
  const stream = handle.createReadStream({ ...range, highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } finally {
    stream.destroy();
    await handle.close().catch(() => undefined);
  }
}

/** Whether an existing file may be replaced: it is the command's own (a report it wrote). */
export type Owned = (file: NamedFile) => Promise<boolean>;

/** Whether the file begins with `prefix` (read without following a link). */
export const beginsWith =
  (prefix: string): Owned =>
  async (file) => {
    const want = Buffer.from(prefix);
    let handle: FileHandle;
    try {
      handle = await open(file.path, O_RDONLY | O_NOFOLLOW);
    } catch {
      return false;
    }
    try {
      const head = Buffer.alloc(want.byteLength);
      const { bytesRead } = await handle.read(head, 0, head.byteLength, 0);
      // What was read, not the whole buffer: a shorter file leaves zeros that are not the file's.
      return head.subarray(0, bytesRead).equals(want);
    } finally {
      await handle.close();
    }
  };

/**
 * A whole-file write: the text goes to a temporary file beside the target (0600), which `commit`
 * renames into place once complete. The target is checked first: no link, and an existing one is
 * replaced only when `owned` says it is the command's own (without `owned`, never).
 */
export class WholeFile {
  private done = false;

  private constructor(
    readonly file: NamedFile,
    readonly handle: FileHandle,
    private readonly temporary: string,
    private readonly owned: Owned | undefined,
  ) {}

  /** Checks the target as `create` does, without creating anything. */
  static async check(file: NamedFile, owned: Owned | undefined, whatToDo: string): Promise<void> {
    // The temporary file goes beside the target: a missing folder is said of the path the user gave.
    const folder = await stat(dirname(resolve(file.path))).catch(() => undefined);
    if (!folder?.isDirectory())
      throw new FileError(`${named(file)}: its folder does not exist; create it first, or choose another path`);
    const stats = await writableFile(file);
    if (stats && !(owned && (await owned(file)))) throw new FileError(`${named(file)} exists already; ${whatToDo}`);
  }

  static async create(file: NamedFile, owned: Owned | undefined, whatToDo: string): Promise<WholeFile> {
    await WholeFile.check(file, owned, whatToDo);
    const absolute = resolve(file.path);
    const temporary = join(dirname(absolute), `.${basename(absolute)}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await createNew({ flag: file.flag, path: temporary }, 'try again');
    return new WholeFile(file, handle, temporary, owned);
  }

  /** Syncs the temporary file and puts it in place of the target. */
  async commit(): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      await this.handle.datasync();
    } finally {
      await this.handle.close();
    }
    // Checked again: a link or another file may have been put there while the run went on. On any
    // failure the temporary file stays, and the error says where it is: what was written is not lost.
    const kept = `what was written is in ${this.temporary}`;
    await WholeFile.check(this.file, this.owned, kept);
    // rename replaces what is there (the check allowed it); link never does, and fails if anything is.
    if (this.owned) await rename(this.temporary, this.file.path);
    else {
      try {
        await link(this.temporary, this.file.path);
      } catch (error) {
        if (codeOf(error) === 'EEXIST') throw new FileError(`${named(this.file)} exists already; ${kept}`);
        // A file system without hard links: checked just above, so a rename replaces nothing.
        await rename(this.temporary, this.file.path);
        return;
      }
      await unlink(this.temporary);
    }
  }

  /** Drops the temporary file: nothing is put in place. */
  async discard(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.handle.close().catch(() => undefined);
    await unlink(this.temporary).catch(() => undefined);
  }
}

/**
 * Writes `text` as one whole file (`WholeFile`): put in place once written, nothing left behind on a
 * failure. `mode` only for a file that holds no data (a docs page a web server must read); else 0600.
 */
export async function writeWholeFile(
  file: NamedFile,
  text: string,
  owned: Owned,
  whatToDo: string,
  mode = DATA_FILE_MODE,
): Promise<void> {
  const whole = await WholeFile.create(file, owned, whatToDo);
  try {
    await whole.handle.writeFile(text);
    // Stryker disable next-line ConditionalExpression: speed only, a chmod to the mode the file was made with.
    if (mode !== DATA_FILE_MODE) await whole.handle.chmod(mode);
    await whole.commit();
  } catch (error) {
    await whole.discard();
    throw error;
  }
}

/** SHA-256 of the file's first `bytes` bytes (all of them when it has no more), hex, and the hash to go on with. */
export async function digestOf(file: NamedFile, bytes: number): Promise<{ hex: string; hash: Hash; read: number }> {
  const hash = createHash('sha256');
  let read = 0;
  if (bytes > 0)
    for await (const chunk of readBytes(file, { start: 0, end: bytes - 1 })) {
      hash.update(chunk);
      read += chunk.byteLength;
    }
  return { hex: hash.copy().digest('hex'), hash, read };
}

/** What a journal records of the output it wrote, so that a resume can tell it is the same file. */
export interface OutputRecord {
  /** The output's place (`placeOf`). */
  out: string;
  format: string;
  /** Its length once the recorded page was written. */
  bytes: number;
  /** SHA-256 of its first `bytes` bytes, hex. */
  sha256: string;
}

/**
 * Checks that `file` is the output `record` describes: the same place and format, at least as long
 * (exactly as long when `exact`: a finished export), the same content up to the recorded length.
 * Throws a FileError saying what differs, having changed nothing; resolves with the content's hash.
 */
export async function checkRecordedOutput(
  file: NamedFile,
  format: string,
  record: OutputRecord,
  journal: NamedFile,
  exact: boolean,
): Promise<Hash> {
  const refuse = (what: string) =>
    new FileError(
      `${named(file)} is not the output the journal ${journal.path} records (${what}); nothing was changed. Give the same ${file.flag} and --journal as the run that wrote them, or a new journal and a new file`,
    );
  if ((await placeOf(file)) !== record.out) throw refuse(`the journal is for ${record.out}`);
  if (format !== record.format) throw refuse(`the journal is for ${record.format}, this name gives ${format}`);
  const stats = await writableFile(file);
  if (!stats) throw refuse('the file does not exist');
  if (stats.size < record.bytes || (exact && stats.size !== record.bytes))
    throw refuse(`it is ${stats.size} bytes, the journal recorded ${record.bytes}`);
  const { hex, hash } = await digestOf(file, record.bytes);
  if (hex !== record.sha256) throw refuse('its content differs from what the journal recorded');
  return hash;
}

/** Whether process `pid` is running (on this machine). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return codeOf(error) === 'EPERM';
  }
}

/** What stands at a lock's path, read through one descriptor: its identity and its text belong together. */
type LockState =
  | { kind: 'gone'; id?: undefined }
  /** A lock of this command: the process id it holds, and which file it is (`id`: device, inode, text). */
  | { kind: 'held'; pid: number; id: string }
  /** No text yet: being written, or left by a run killed while writing it. */
  | { kind: 'empty'; id?: undefined }
  /** Not a lock of this command: a link, not a regular file, or text that is no process id. */
  | { kind: 'foreign'; what: string; id?: undefined };

/**
 * A lock's text: the process id and a nonce of its own, so that a lock made again in the same place
 * (a file system reuses inode numbers at once) is never taken for the one before it. A lock of an
 * earlier version holds the process id alone.
 */
const LOCK_TEXT = /^[0-9]{1,10}(?: [0-9a-f]{16})?\n?$/;
const LOCK_BYTES = 28;

async function readLock(path: string): Promise<LockState> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO planted there opens at once instead of waiting for a writer.
    handle = await open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return { kind: 'gone' };
    return { kind: 'foreign', what: code === 'ELOOP' ? 'is a symbolic link' : `cannot be read (${code})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      return { kind: 'foreign', what: stats.isDirectory() ? 'is a folder' : 'is not a regular file' };
    const bytes = Buffer.alloc(LOCK_BYTES + 1);
    const { bytesRead } = await handle.read(bytes, 0, bytes.byteLength, 0);
    const text = bytes.subarray(0, bytesRead).toString('utf8');
    if (text === '') return { kind: 'empty' };
    if (!LOCK_TEXT.test(text)) return { kind: 'foreign', what: 'holds no process id' };
    return { kind: 'held', pid: Number.parseInt(text, 10), id: `${stats.dev}:${stats.ino}:${text}` };
  } finally {
    await handle.close();
  }
}

/** Steps a test may take between those of a takeover, to run another take there (only tests pass them). */
export interface TakeoverSteps {
  /** A lock was there when this run went to make its own; it is not read yet. */
  seen?: () => Promise<void>;
  /** The lock was found stale (its process gone); nothing is claimed yet. */
  found?: () => Promise<void>;
  /** This run holds the takeover's claim; the stale lock is still there. */
  claimed?: () => Promise<void>;
}

/**
 * The lock of a journal: `<journal>.lock`, made with O_EXCL and holding the process id, so a second
 * run on the same journal is refused while the first one runs. A lock left by a run that was killed
 * (its process gone) is taken over, by one run only: removing it is a check-then-act, so it is done
 * while holding `<journal>.lock.takeover` (made with O_EXCL), and only if the lock is still the very
 * file found stale. Two runs that both find it stale cannot both take it: the second either finds the
 * claim taken, or, once it holds the claim, finds the first one's lock in its place.
 */
export class JournalLock {
  private constructor(
    private readonly path: string,
    private readonly id: string,
  ) {}

  static async take(journal: NamedFile, steps: TakeoverSteps = {}): Promise<JournalLock> {
    const path = `${journal.path}.lock`;
    const inUse = (by: string) =>
      new FileError(
        `${named(journal)} is in use by another run${by}; wait for it to end, or remove ${path} if no run is going on`,
      );
    // Three turns: a lock that vanishes between two looks every time is a race this run gives up on.
    for (const _turn of [1, 2, 3]) {
      const made = await createLock({ flag: journal.flag, path });
      if (made) return new JournalLock(path, made);
      await steps.seen?.();
      const found = await readLock(path);
      // Gone since (its run ended): try again.
      if (found.kind === 'gone') continue;
      if (found.kind === 'foreign')
        throw new FileError(
          `${named(journal)}: its lock ${path} ${found.what}, so it is no lock of this command and is left as it is; remove it if no run is going on, or choose another ${journal.flag}`,
        );
      if (found.kind === 'empty') throw inUse('');
      if (running(found.pid)) throw inUse(` (process ${found.pid})`);
      // Left by a run that is gone (killed): taken over, then made again on the next turn.
      await steps.found?.();
      await takeOver(path, found.id, steps, journal);
    }
    throw new FileError(`${named(journal)}: its lock ${path} could not be taken; try again`);
  }

  /** Removes the lock this run made (and only that one: never one another run made in its place). */
  async release(): Promise<void> {
    if ((await readLock(this.path)).id === this.id) await unlink(this.path).catch(() => undefined);
  }
}

/** Makes the lock with this process id; its identity (as readLock gives it), or undefined when one is there. */
async function createLock(file: NamedFile): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, DATA_FILE_MODE);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return undefined;
    throw refusedLink(file, error);
  }
  const text = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  try {
    await handle.write(text);
    const stats = await handle.stat();
    return `${stats.dev}:${stats.ino}:${text}`;
  } catch (error) {
    // A lock without its process id would refuse every later run: not left behind.
    await unlink(file.path).catch(() => undefined);
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Removes the stale lock `staleId` while holding the takeover's claim, if it is still that file; a run
 * that finds the claim taken is refused: another run is taking the lock over.
 */
async function takeOver(path: string, staleId: string, steps: TakeoverSteps, journal: NamedFile): Promise<void> {
  const claim = `${path}.takeover`;
  try {
    await (await open(claim, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, DATA_FILE_MODE)).close();
  } catch (error) {
    // O_EXCL: a link planted there is "exists" too, never followed.
    if (codeOf(error) === 'EEXIST')
      throw new FileError(
        `${named(journal)} is being taken over by another run (its lock ${path} was left by a run that is gone); try again, or remove ${claim} if no run is going on`,
      );
    throw error;
  }
  try {
    await steps.claimed?.();
    // Only the file found stale: another run may have taken it over and made its own since.
    if ((await readLock(path)).id === staleId) await unlink(path);
  } finally {
    // Left behind, it would refuse later runs with a message naming it.
    await unlink(claim).catch(() => undefined);
  }
}

/**
 * Why the file at `path`, one the user names for the command to read (update-many's --input, verify's
 * --body), cannot be read: missing, a folder, or not readable, in words that say what to do; undefined
 * when it is a file. `what` says what to give instead of a folder.
 */
export async function readableProblem(path: string, what: string): Promise<string | undefined> {
  try {
    const stats = await stat(path);
    if (stats.isFile()) return undefined;
    return `is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}; give ${what}`;
  } catch (error) {
    // The words for the two usual causes; the system's code for the rest.
    const code = codeOf(error);
    if (code === 'ENOENT') return 'does not exist: check the path';
    if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
    return `cannot be read (${code})`;
  }
}

/** A private folder for files a command hands to another program: `file(name)` is its path, `write` creates one. */
export interface ScratchFolder {
  path: string;
  file(name: string): string;
  /** Creates `name` in the folder (never replacing one), readable by its owner only. */
  write(name: string, text: string): Promise<void>;
}

/**
 * Runs `work` with a new folder under the system's temporary folder (mkdtemp: 0700, a name nobody can
 * guess), and removes the folder and all it holds when `work` ends, however it ends.
 */
export async function withScratchFolder<T>(prefix: string, work: (folder: ScratchFolder) => Promise<T>): Promise<T> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  const file = (name: string) => join(path, basename(name));
  try {
    return await work({
      path,
      file,
      async write(name, text) {
        const handle = await open(file(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, DATA_FILE_MODE);
        try {
          await handle.writeFile(text);
        } finally {
          await handle.close();
        }
      },
    });
  } finally {
    await rm(path, { recursive: true, force: true });
  }
}

/** Makes the folder a command was told to write into (`docs --out DIR`), with its parents; refuses a path that is not a folder. */
export async function makeFolder(folder: NamedFile): Promise<void> {
  try {
    await mkdir(folder.path, { recursive: true });
  } catch (error) {
    if (codeOf(error) !== 'EEXIST' && codeOf(error) !== 'ENOTDIR') throw error;
  }
  const found = await stat(folder.path).catch(() => undefined);
  if (!found?.isDirectory())
    throw new FileError(`${named(folder)} is not a folder: give the folder to write into, or a new name`);
}
