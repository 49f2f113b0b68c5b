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
// - one journal is held by one run at a time (a lock file made with O_EXCL).
// Refusals are FileErrors: usage errors (exit 2) naming the flag, the file and what to do.
import { createHash, type Hash, randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { type FileHandle, link, lstat, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/** Owner read and write, nobody else: journals, reports and exported keys hold personal data. */
export const DATA_FILE_MODE = 0o600;

const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW } = constants;

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
      return bytesRead === want.byteLength && head.equals(want);
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

/**
 * The lock of a journal: `<journal>.lock`, made with O_EXCL and holding the process id, so a second
 * run on the same journal is refused while the first one runs. A lock left by a run that was killed
 * (its process gone) is taken over.
 */
export class JournalLock {
  private released = false;

  private constructor(private readonly path: string) {}

  static async take(journal: NamedFile): Promise<JournalLock> {
    const path = `${journal.path}.lock`;
    for (let attempt = 1; ; attempt++) {
      try {
        const handle = await open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, DATA_FILE_MODE);
        try {
          await handle.write(`${process.pid}\n`);
        } finally {
          await handle.close();
        }
        return new JournalLock(path);
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw refusedLink({ flag: journal.flag, path }, error);
      }
      const holder = await lockHolder(path);
      // Gone since (its run ended): try again.
      if (holder === 'gone' && attempt < 3) continue;
      if (holder === 'gone' || holder === undefined || running(holder))
        throw new FileError(
          `${named(journal)} is in use by another run${typeof holder === 'number' ? ` (process ${holder})` : ''}; wait for it to end, or remove ${path} if no run is going on`,
        );
      // Left by a run that is gone (killed): taken over.
      await unlink(path).catch(() => undefined);
      if (attempt >= 3) throw new FileError(`${named(journal)}: its lock ${path} could not be taken; try again`);
    }
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if ((await lockHolder(this.path)) === process.pid) await unlink(this.path).catch(() => undefined);
  }
}

/** The process id a lock holds; 'gone' when there is no lock; undefined when it holds none (being written). */
async function lockHolder(path: string): Promise<number | 'gone' | undefined> {
  try {
    if ((await lstat(path)).isSymbolicLink()) return undefined;
    const text = (await readFile(path, 'utf8')).trim();
    return /^[0-9]{1,10}$/.test(text) ? Number(text) : undefined;
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? 'gone' : undefined;
  }
}
