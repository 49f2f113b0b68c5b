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
import nodeFs, { constants, type Stats } from 'node:fs';
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
  rmdir,
  stat,
  unlink,
} from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import properLockfile from 'proper-lockfile';
import { basename, dirname, join, resolve } from 'node:path';
import { shownBytes } from './body-limit.js';
import { UsageError } from './usage-error.js';

/** Owner read and write, nobody else: journals, reports and exported keys hold personal data. */
export const DATA_FILE_MODE = 0o600;

const { O_WRONLY, O_RDONLY, O_RDWR, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;

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

/**
 * A system error about a file the user named, in our words: the user's path (never a temporary
 * file's), the cause, and what to do; a FileError (exit 2) whatever the code. The rule for every
 * file of the command line: its errors are said of the path the user gave, or of its folder.
 */
export function fileProblem(file: NamedFile, error: unknown): unknown {
  if (error instanceof FileError) return error;
  const code = codeOf(error);
  if (code === undefined) return error;
  const folder = dirname(resolve(file.path));
  const says: Record<string, string> = {
    EROFS: `its folder ${folder} is on a read-only file system (EROFS); choose a folder you can write to`,
    EACCES: `permission denied (EACCES) in ${folder}; choose a folder you can write to, or ask for write permission`,
    EPERM: `not permitted (EPERM) in ${folder}; choose a folder you can write to, or ask for write permission`,
    ENOSPC: `no space left on the device that holds ${folder}; free some space, then run the same command again`,
    EDQUOT: `the disk quota for ${folder} is used up; free some space, then run the same command again`,
    EIO: `the device that holds ${folder} failed to read or write (EIO); check the disk, then run the same command again`,
    ENOENT: `its folder ${folder} does not exist; create it first, or choose another path`,
    ENOTDIR: `a part of the path ${folder} is not a folder; give a path in a folder`,
    EISDIR: 'it is a folder; give the name of a file',
    EMFILE: 'too many files are open; close some programs, then run the same command again',
    ENFILE: 'too many files are open on this system; try again later',
    EFBIG: `the file is too large for the file system that holds ${folder}; choose another folder`,
  };
  return new FileError(`${named(file)}: ${says[code] ?? `cannot be written (${code}); check the path and its folder`}`);
}

/** Whether `path` is a folder now (a sync stat: only on the way to an error's message). */
const isFolder = (path: string): boolean => nodeFs.statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * `fileProblem` for a file (or folder) being made (`made`: the user's path, or a parent of it being
 * made for it): a folder that exists yet answers ENOENT to a new entry in it is a special file system
 * (/proc), not a missing folder, and is said so.
 */
function creationProblem(file: NamedFile, error: unknown, made: string = file.path): unknown {
  const folder = dirname(resolve(made));
  if (codeOf(error) === 'ENOENT' && isFolder(folder))
    return new FileError(
      `${named(file)}: cannot be created in ${folder}: the system says ENOENT (no such file or directory) though the folder exists, as a special file system such as /proc or /sys does; choose a folder you can write to`,
    );
  return fileProblem(file, error);
}

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
 * Writes all of `data`, at `position` (default: where the file stands; at its end for a file opened to
 * append). A file system that is nearly full writes part of a write and says so only by the count (the
 * next write gives ENOSPC), so the count is never trusted to be the whole: one `FileHandle.write` that
 * wrote part of a page would let a journal record a page the file does not hold.
 */
async function writeAll(file: FileHandle, data: string | Uint8Array, position?: number): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  let done = 0;
  while (done < bytes.byteLength) {
    const at = position === undefined ? null : position + done;
    const { bytesWritten } = await file.write(bytes, done, bytes.byteLength - done, at);
    if (bytesWritten === 0) throw Object.assign(new Error('no byte written'), { code: 'EIO' });
    done += bytesWritten;
  }
}

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

/**
 * A file this layer opened for a command to write (a journal, an export, a report): the one way a module
 * outside src/files.ts writes to a file it holds open, so every write, truncation and sync is this
 * module's, where test/layers sees them. The descriptor itself is never handed out.
 */
export class OpenFile {
  readonly #handle: FileHandle;

  constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /** Writes all of `data` where the file is at (its end, when it was opened to append); see writeAll. */
  write(data: string | Uint8Array): Promise<void> {
    return writeAll(this.#handle, data);
  }

  /**
   * Writes all of `bytes` at `position`: a file system that is nearly full writes part of them and says
   * so only by the count (the next write gives ENOSPC), so the count is never trusted to be the whole.
   */
  writeAt(bytes: Uint8Array, position: number): Promise<void> {
    return writeAll(this.#handle, bytes, position);
  }

  /** Writes `text` as the file's whole content. */
  async writeFile(text: string): Promise<void> {
    await this.#handle.writeFile(text);
  }

  /** Cuts the file to its first `bytes` bytes. */
  truncate(bytes: number): Promise<void> {
    return this.#handle.truncate(bytes);
  }

  /** Waits until what was written is on the disk. */
  datasync(): Promise<void> {
    return this.#handle.datasync();
  }

  chmod(mode: number): Promise<void> {
    return this.#handle.chmod(mode);
  }

  stat(): Promise<Stats> {
    return this.#handle.stat();
  }

  /** The bytes of the file (from `start`, up to `end` inclusive), read through its descriptor. */
  async *bytes(range: { start?: number; end?: number } = {}): AsyncGenerator<Buffer> {
    const chunk = Buffer.alloc(64 * 1024);
    let at = range.start ?? 0;
    const end = range.end ?? Number.POSITIVE_INFINITY;
    while (at <= end) {
      const { bytesRead } = await this.#handle.read(chunk, 0, Math.min(chunk.byteLength, end - at + 1), at);
      if (bytesRead === 0) return;
      at += bytesRead;
      yield Buffer.from(chunk.subarray(0, bytesRead));
    }
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}

/**
 * Creates `file`, which must not exist: 0600, never through a link. `said` is the file errors are said
 * of (the user's file, when `file` is a temporary one beside it).
 */
export async function createNew(file: NamedFile, whatToDo: string, said: NamedFile = file): Promise<OpenFile> {
  try {
    return new OpenFile(await open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, DATA_FILE_MODE));
  } catch (error) {
    if (codeOf(error) === 'EEXIST') throw new FileError(`${named(said)} exists already; ${whatToDo}`);
    throw creationProblem(said, refusedLink(said, error));
  }
}

/**
 * A file of the run's own is one name for one file: a file with more than one hard link has another
 * name somewhere (planted, or someone else's), so it is never written in place.
 */
function refuseLinked(file: NamedFile, stats: Stats): void {
  if (stats.nlink > 1)
    throw new FileError(
      `${named(file)} has ${stats.nlink} names (hard links), so it is not a file of this command's own and is not written; give a file of its own, or a new name`,
    );
}

/**
 * Opens a file of this run's own (a journal, a resumed output) to read and write it: never through a
 * link, a regular file with one name only. What is checked of it afterwards is checked through this
 * descriptor, the one that writes (`OpenFile.bytes`, `OpenFile.stat()`), never by its name again.
 */
export async function openOwn(file: NamedFile, { append = true } = {}): Promise<OpenFile> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO planted there opens at once (and is refused) instead of waiting for a writer.
    handle = await open(file.path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | (append ? O_APPEND : 0));
  } catch (error) {
    throw fileProblem(file, refusedLink(file, error));
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FileError(notAFile(file, stats));
    refuseLinked(file, stats);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return new OpenFile(handle);
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

/** The file's first `bytes` bytes as text (read without following a link); empty when it cannot be read. */
export async function readHead(file: NamedFile, bytes: number): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(file.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return '';
  }
  try {
    const head = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(head, 0, bytes, 0);
    return head.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

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
  /** Whether the write was given up (its temporary file removed). */
  discarded = false;

  private constructor(
    readonly file: NamedFile,
    readonly handle: OpenFile,
    private readonly temporary: string,
    private readonly owned: Owned | undefined,
  ) {}

  /**
   * Checks the target as `create` does, and that its folder takes a new file: a temporary one is
   * created there and removed at once, so a folder that refuses it (read-only, no permission, /proc)
   * is said before the run rather than after it. Nothing else is created.
   */
  static async check(file: NamedFile, owned: Owned | undefined, whatToDo: string): Promise<void> {
    // The temporary file goes beside the target: a missing folder is said of the path the user gave.
    const folder = await stat(dirname(resolve(file.path))).catch(() => undefined);
    if (!folder?.isDirectory())
      throw new FileError(`${named(file)}: its folder does not exist; create it first, or choose another path`);
    const stats = await writableFile(file);
    if (stats && !(owned && (await owned(file)))) throw new FileError(`${named(file)} exists already; ${whatToDo}`);
    const probe = WholeFile.temporaryOf(file);
    await (await createNew(probe, 'try again', file)).close();
    await unlink(probe.path).catch(() => undefined);
  }

  /** A new temporary name beside `file`, hidden, that nobody can guess. */
  private static temporaryOf(file: NamedFile): NamedFile {
    const absolute = resolve(file.path);
    return {
      flag: file.flag,
      path: join(dirname(absolute), `.${basename(absolute)}.${randomBytes(6).toString('hex')}.tmp`),
    };
  }

  static async create(file: NamedFile, owned: Owned | undefined, whatToDo: string): Promise<WholeFile> {
    await WholeFile.check(file, owned, whatToDo);
    const temporary = WholeFile.temporaryOf(file);
    const handle = await createNew(temporary, 'try again', file);
    return new WholeFile(file, handle, temporary.path, owned);
  }

  /**
   * Syncs the temporary file and puts it in place of the target. On any failure the temporary file
   * is removed (it holds personal data, and its name is nobody's to know) and the error is said of
   * the target: a rerun writes it again.
   */
  async commit(): Promise<void> {
    if (this.done) return;
    try {
      await this.put();
    } catch (error) {
      await this.discard();
      throw fileProblem(this.file, error);
    }
    this.done = true;
  }

  private async put(): Promise<void> {
    await this.handle.datasync();
    await this.handle.close();
    // Checked again: a link or another file may have been put there while the run went on.
    const again = 'it was put there while this run went on; nothing was replaced, so run again with another name';
    await WholeFile.check(this.file, this.owned, again);
    // rename replaces what is there (the check allowed it); link never does, and fails if anything is.
    if (this.owned) await rename(this.temporary, this.file.path);
    else {
      try {
        await link(this.temporary, this.file.path);
      } catch (error) {
        if (codeOf(error) === 'EEXIST') throw new FileError(`${named(this.file)} exists already; ${again}`);
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
    this.discarded = true;
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
    throw fileProblem(file, error);
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
 * Checks that `handle` (opened by `openOwn` at `file`) is the output `record` describes: the same
 * place and format, at least as long (exactly as long when `exact`: a finished export), the same
 * content up to the recorded length. Read through the descriptor that then writes: a file put at
 * the name after this check is never the one written. Throws a FileError saying what differs, having
 * changed nothing; resolves with the content's hash.
 */
export async function checkRecordedOutput(
  handle: OpenFile,
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
  const stats = await handle.stat();
  if (stats.size < record.bytes || (exact && stats.size !== record.bytes))
    throw refuse(`it is ${shownBytes(stats.size)}, the journal recorded ${shownBytes(record.bytes)}`);
  const hash = createHash('sha256');
  if (record.bytes > 0) for await (const chunk of handle.bytes({ start: 0, end: record.bytes - 1 })) hash.update(chunk);
  if (hash.copy().digest('hex') !== record.sha256) throw refuse('its content differs from what the journal recorded');
  return hash;
}

/** How long a lock's lease lasts unrenewed: a lock whose lease ran out is taken over (its run is gone). */
export const LEASE_MS = 30_000;
/** How often the holder renews its lease (a fifth of it: a busy event loop has room to be late). */
export const LEASE_RENEW_MS = 6_000;
/** An earlier version's lock: a file holding a process id (and a nonce). */
const EARLIER_LOCK = /^[0-9]{1,10}(?: [0-9a-f]{16})?\n?$/;
/** The file inside a lock's folder that says who holds it; while it is there, the folder cannot be removed by rmdir. */
const LOCK_OWNER = 'owner';

/** Steps a test may take between those of a takeover, to run another take there (only tests pass them). */
export interface TakeoverSteps {
  /** This run found the lock's lease run out; nothing is claimed yet. */
  found?: () => Promise<void>;
  /** This run holds the takeover's claim; the lapsed lock is still there. */
  claimed?: () => Promise<void>;
}

export interface LeaseOptions {
  /** Called once if the lease is lost (not renewed in time, or the lock removed or replaced): stop writing. */
  onLost?: (error: FileError) => void;
  /** Only tests shorten these. */
  leaseMs?: number;
  renewMs?: number;
  steps?: TakeoverSteps;
}

/**
 * The lock of a file a run writes for a while (a journal, an export's output): `<file>.lock`, a
 * folder made by proper-lockfile (mkdir, atomic on local and network file systems), whose holder
 * renews its modification time every LEASE_RENEW_MS. It is held while its lease is fresh, whoever
 * holds it: a run in another container (another PID namespace) or on another machine sharing the
 * folder; no process id is ever trusted. A lock whose lease ran out (LEASE_MS without renewal: its run
 * was killed) is taken over by one run only: the removal is a check-then-act, done while holding
 * `<file>.lock.takeover` (O_EXCL), and only if the folder is still the one found lapsed. The folder
 * holds a file (`owner`), so proper-lockfile's own removal of a lapsed lock (rmdir) fails instead of
 * racing ours. A holder whose lease was lost (suspended past it, or its lock removed) is told
 * (`onLost`), and stops.
 */
export class JournalLock {
  private releasing = false;
  /** Set once the lease is lost: nothing more may be written under it. */
  lost: FileError | undefined;

  private constructor(
    private readonly path: string,
    private unlock: () => Promise<void>,
  ) {}

  static async take(file: NamedFile, options: LeaseOptions = {}): Promise<JournalLock> {
    const path = `${file.path}.lock`;
    const leaseMs = options.leaseMs ?? LEASE_MS;
    const renewMs = options.renewMs ?? LEASE_RENEW_MS;
    const steps = options.steps ?? {};
    const inUse = (renewed: Stats | undefined) =>
      new FileError(
        `${named(file)} is in use by another run${renewed ? ` (its lease renewed ${Math.max(0, Math.round((Date.now() - renewed.mtimeMs) / 1000))} s ago)` : ''}; wait for it to end (a lock not renewed for ${LEASE_MS / 1000} s is taken over: its run is gone), or remove ${path} if no run is going on anywhere`,
      );
    const foreign = (what: string) =>
      new FileError(
        `${named(file)}: its lock ${path} ${what}, so it is no lock of this command and is left as it is; remove it if no run is going on, or choose another ${file.flag}`,
      );
    // Two turns: a lapsed lock taken over, then made again.
    for (const _turn of [1, 2]) {
      const found = await lstatOrMissing(path);
      if (found?.isSymbolicLink()) throw foreign('is a symbolic link');
      // An earlier version's lock, a file holding a process id: never renewed, so its lease is its age.
      if (found?.isFile() && !EARLIER_LOCK.test(await readHead({ flag: file.flag, path }, 64)))
        throw foreign('is a file that holds no lock');
      if (found && !found.isDirectory() && !found.isFile()) throw foreign('is not a folder');
      if (found && found.mtimeMs >= Date.now() - leaseMs) throw inUse(found);
      if (found) {
        await steps.found?.();
        await takeOver(path, found, leaseMs, steps, file);
        continue;
      }
      let lock: JournalLock | undefined;
      let release: () => Promise<void>;
      try {
        release = await properLockfile.lock(file.path, {
          lockfilePath: path,
          realpath: false,
          stale: leaseMs,
          update: renewMs,
          retries: 0,
          fs: ownedLockFs,
          onCompromised: (error: Error) => lock?.lose(error),
        });
      } catch (error) {
        const code = codeOf(error);
        // ELOCKED: made by another run since we looked; ENOTEMPTY: a lapsed one, but another run is taking it over.
        if (code === 'ELOCKED' || code === 'ENOTEMPTY' || code === 'EEXIST') throw inUse(await lstatOrMissing(path));
        // Named by the user's file (its lock is ours): the folder that refused is the same.
        throw creationProblem(file, error, path);
      }
      lock = new JournalLock(path, release);
      return lock;
    }
    throw new FileError(`${named(file)}: its lock ${path} could not be taken; try again`);
  }

  private lose(error: Error): void {
    if (this.releasing || this.lost) return;
    this.lost = new FileError(
      `the lock ${this.path} was lost (${codeOf(error) === 'ENOENT' ? 'it was removed' : 'its lease could not be renewed in time, so another run may hold it now'}); the run stopped so that two runs never write one file`,
    );
    this.onLost?.(this.lost);
  }

  /** Set by the run that holds it: what to do when the lease is lost. */
  onLost: ((error: FileError) => void) | undefined;

  /** Removes the lock this run holds (and only that one: never one another run made in its place). */
  async release(): Promise<void> {
    if (this.releasing) return;
    this.releasing = true;
    if (this.lost) return;
    await unlink(join(this.path, LOCK_OWNER)).catch(() => undefined);
    await this.unlock().catch(() => undefined);
  }
}

/**
 * The file system proper-lockfile uses, with one change: the lock's folder is made with its `owner`
 * file in it (who holds it: machine, process, a nonce), before proper-lockfile reads its time.
 */
const ownedLockFs = {
  ...nodeFs,
  mkdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void) {
    nodeFs.mkdir(path, 0o700, (error) => {
      if (error) return callback(error);
      const text = `${hostname()} ${process.pid} ${randomBytes(8).toString('hex')}\n`;
      nodeFs.writeFile(join(path, LOCK_OWNER), text, { mode: DATA_FILE_MODE, flag: 'wx' }, (written) => {
        if (!written) return callback(null);
        nodeFs.rmdir(path, () => callback(written));
      });
    });
  },
};

/**
 * Removes the lapsed lock `lapsed` while holding the takeover's claim, if it is still that folder and
 * still lapsed; a run that finds the claim taken is refused: another run is taking the lock over.
 */
async function takeOver(path: string, lapsed: Stats, leaseMs: number, steps: TakeoverSteps, file: NamedFile) {
  const claim = `${path}.takeover`;
  try {
    await (await open(claim, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, DATA_FILE_MODE)).close();
  } catch (error) {
    // O_EXCL: a link planted there is "exists" too, never followed.
    if (codeOf(error) === 'EEXIST')
      throw new FileError(
        `${named(file)} is being taken over by another run (its lock ${path} was left by a run that is gone); try again, or remove ${claim} if no run is going on`,
      );
    throw fileProblem(file, error);
  }
  try {
    await steps.claimed?.();
    const now = await lstatOrMissing(path);
    // Only the folder found lapsed, and only if still lapsed: another run may have taken it over since.
    if (now && now.ino === lapsed.ino && now.dev === lapsed.dev && now.mtimeMs < Date.now() - leaseMs) {
      if (now.isDirectory()) {
        await unlink(join(path, LOCK_OWNER)).catch(() => undefined);
        await rmdir(path);
      } else await unlink(path);
    }
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

/**
 * Makes `folder` and the parents it lacks, one level at a time: a recursive mkdir loops for ever on a
 * path under /proc (Node 20), and says ENOENT where a parent exists but cannot take a folder.
 */
async function makeFolders(folder: NamedFile): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(folder.path); ; at = dirname(at)) {
    const found = await lstat(at).then(
      () => true,
      (error: unknown) => {
        // A part of the path that is a file (ENOTDIR), or any other trouble: said of the user's path.
        if (codeOf(error) !== 'ENOENT') throw fileProblem(folder, error);
        return false;
      },
    );
    if (found || dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const path of missing)
    await mkdir(path).catch((error: unknown) => {
      if (codeOf(error) !== 'EEXIST') throw creationProblem(folder, error, path);
    });
}

/** Makes the folder a command was told to write into (`docs --out DIR`), with its parents; refuses a path that is not a folder. */
export async function makeFolder(folder: NamedFile): Promise<void> {
  await makeFolders(folder);
  const found = await stat(folder.path).catch(() => undefined);
  if (!found?.isDirectory())
    throw new FileError(`${named(folder)} is not a folder: give the folder to write into, or a new name`);
}
