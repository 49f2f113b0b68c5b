// An append-only journal of JSON lines, shared by update-many and export-keys: what is done, so a
// rerun with the same journal skips it. Entries are written in small batches (every `batchSize`
// entries or `batchMs` milliseconds, and on close) and synced to disk. A crash can tear the last
// line only: reading ignores it, and the file is cut back to its last whole line before appending.
// Its files are opened through ./files.ts (no links, one name, 0600, held by one run: `JournalLock`),
// and it is read through ./bounded-input.ts (lines bounded, in time linear in its size).
//
// A full disk never loses an outcome: the writer keeps RESERVE_BYTES of spaces written ahead of its
// last entry (space the file system has already given), and writes entries over them. When the
// reserve cannot be renewed (ENOSPC, EDQUOT, EIO, EROFS) the run is told at once (`onTrouble`) and
// sends nothing more, and the outcomes of the requests still in flight are written into what is left
// of the reserve. The spaces are cut off when the journal closes; a reader ignores them (they are a
// last line without a line break) if the run was killed first.
import { randomBytes } from 'node:crypto';
import { UsageError } from '../command.js';
import { boundedLines, MAX_RECORD_BYTES } from './bounded-input.js';
import {
  createNew,
  type FileError,
  fileProblem,
  type JournalLock,
  type NamedFile,
  type OpenFile,
  openOwn,
  readBytes,
  writableFile,
} from '../../files.js';

export type JournalKind = 'update-many' | 'export-keys';
export type JournalEntry = Record<string, unknown>;

/**
 * 2: the header records what the journal is for (`JournalIdentity`), and update-many's line hashes are
 * 64 bits. Version 1 journals (no identity, 16-bit hashes) are still read and gone on with.
 */
export const JOURNAL_VERSION = 2;
const READ_VERSIONS: readonly unknown[] = [1, 2];
const header = (kind: JournalKind) => ({ journal: kind, version: JOURNAL_VERSION });

/** What a journal is for, in its first line: the command, and (update-many) the input it goes through. */
export interface JournalIdentity {
  /** A random id of this journal: a report records it, and is replaced only by a run of the same journal. */
  id: string;
  command: string;
  input?: InputIdentity;
}

/** An input file as a journal records it: its place (`placeOf`), size and SHA-256. */
export interface InputIdentity {
  path: string;
  size: number;
  sha256: string;
}

/** Spaces kept written ahead of the last entry: room for every outcome in flight when the disk fills. */
export const RESERVE_BYTES = 64 * 1024;

/** A journal that cannot be this run's: a usage error (exit 2), since the flag names the wrong file. */
export class JournalError extends UsageError {
  override readonly name = 'JournalError';
}

/** Thrown by a reader's `onEntry` for an entry it cannot take: the journal is refused, naming the line. */
export class EntryProblem extends Error {
  override readonly name = 'EntryProblem';
}

export interface JournalRead {
  /** Bytes of whole lines: what is kept when the journal is written again. */
  bytes: number;
  /** Whether the file held a header at all (absent or empty: a new journal). */
  started: boolean;
  /** Whether the file exists (it may be empty). */
  exists: boolean;
  /** The header line's identity (undefined for a new journal, or one of version 1). */
  identity?: Partial<JournalIdentity> | undefined;
}

/**
 * Reads the journal at `path` (a missing file is an empty journal), calling `onEntry` with each entry
 * after the header, in order. Throws JournalError when it is the journal of another command, when a
 * whole line is not a JSON object (or longer than MAX_RECORD_BYTES, or not UTF-8), or when `onEntry`
 * throws an EntryProblem; a FileError when it is a link.
 */
export async function readJournal(
  path: string,
  kind: JournalKind,
  onEntry: (entry: JournalEntry) => void,
): Promise<JournalRead> {
  const file: NamedFile = { flag: '--journal', path };
  const stats = await writableFile(file);
  if (!stats) return { bytes: 0, started: false, exists: false };
  let identity: Partial<JournalIdentity> | undefined;
  const notOne = (lineNumber: number, what: string) =>
    new JournalError(
      `--journal ${path}: line ${lineNumber} ${what} (not an ${kind} journal, or edited); give the journal this command wrote, or a new file`,
    );
  let bytes = 0;
  let started = false;
  for await (const line of boundedLines(readBytes(file), MAX_RECORD_BYTES)) {
    // A last line without its line break was torn by a crash mid-write: never complete, so never an outcome.
    if (!line.ended) break;
    if (line.problem) throw notOne(line.number, line.problem === 'too-long' ? 'is too long' : 'is not UTF-8');
    let entry: unknown;
    try {
      entry = JSON.parse(line.text!);
    } catch {
      throw notOne(line.number, 'is not JSON');
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw notOne(line.number, 'is not a journal entry');
    if (!started) {
      const { journal, version, id, command, input } = entry as JournalEntry;
      if (journal !== kind || !READ_VERSIONS.includes(version))
        throw new JournalError(
          `--journal ${path} is not an ${kind} journal (version ${JOURNAL_VERSION}); give the journal this command wrote, or a new file`,
        );
      started = true;
      if (version !== 1)
        identity = {
          ...(typeof id === 'string' ? { id } : {}),
          ...(typeof command === 'string' ? { command } : {}),
          ...(isInputIdentity(input) ? { input } : {}),
        };
    } else {
      try {
        onEntry(entry as JournalEntry);
      } catch (error) {
        if (error instanceof EntryProblem) throw notOne(line.number, error.message);
        throw error;
      }
    }
    bytes += line.bytes;
  }
  // Something, but not even a whole header line: not a journal, and not to be cut away.
  if (!started && stats.size > 0)
    throw new JournalError(
      `--journal ${path} is not an ${kind} journal (version ${JOURNAL_VERSION}); give the journal this command wrote, or a new file`,
    );
  return { bytes, started, exists: true, identity };
}

const isInputIdentity = (value: unknown): value is InputIdentity =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as InputIdentity).path === 'string' &&
  Number.isSafeInteger((value as InputIdentity).size) &&
  typeof (value as InputIdentity).sha256 === 'string';

export interface JournalWriterOptions {
  batchSize?: number;
  batchMs?: number;
  /** The journal's lock, released when the writer closes. */
  lock?: JournalLock;
  /** What a new journal's header records (and `id` is made here when not given). */
  identity?: Omit<JournalIdentity, 'id'> & { id?: string };
  /**
   * Called once when the journal can take no more than what its reserve holds (the disk is full, or
   * failed): the run sends nothing more. A FileError naming the journal, in our words.
   */
  onTrouble?: (error: FileError) => void;
  /** Only tests make it smaller. */
  reserveBytes?: number;
}

/** Appends entries to a journal read by `readJournal` (its `read` answer), in small synced batches. */
export class JournalWriter {
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** An entry that could not be written: nothing more is (the file ends with its last whole entry). */
  private failure: FileError | undefined;
  /** The reserve could not be renewed: entries still go into what is left of it. */
  trouble: FileError | undefined;
  private readonly batchSize: number;
  private readonly batchMs: number;
  private readonly reserveBytes: number;
  /** Where the next entry goes, and where the spaces written ahead end. */
  private at: number;
  private reservedTo: number;
  /** The journal's id (its header's), for the report. */
  readonly id: string | undefined;
  /** Entries queued or written since the last whole write that failed: said in the summary if any were lost. */
  unwritten = 0;

  private constructor(
    private readonly file: OpenFile,
    private readonly named: NamedFile,
    at: number,
    options: JournalWriterOptions,
    id: string | undefined,
  ) {
    this.batchSize = options.batchSize ?? 50;
    this.batchMs = options.batchMs ?? 200;
    this.reserveBytes = options.reserveBytes ?? RESERVE_BYTES;
    this.at = at;
    this.reservedTo = at;
    this.lock = options.lock;
    this.onTrouble = options.onTrouble;
    this.id = id;
  }

  private readonly lock: JournalLock | undefined;
  private readonly onTrouble: ((error: FileError) => void) | undefined;

  static async open(
    path: string,
    kind: JournalKind,
    read: JournalRead,
    options: JournalWriterOptions = {},
  ): Promise<JournalWriter> {
    const named: NamedFile = { flag: '--journal', path };
    // Written at positions of its own (not O_APPEND): entries go over the reserve of spaces.
    const file = read.exists ? await openOwn(named, { append: false }) : await createNew(named, 'try again');
    const id = read.started ? read.identity?.id : (options.identity?.id ?? randomBytes(8).toString('hex'));
    const writer = new JournalWriter(file, named, read.exists ? read.bytes : 0, options, id);
    try {
      // Cut a torn last line (and a reserve left by a run that was killed), so the next entry starts a line of its own.
      if (read.exists) await file.truncate(read.bytes);
      // Room first: a disk too full for the reserve refuses the run before anything is sent.
      await writer.renewReserve();
    } catch (error) {
      await file.close();
      throw fileProblem(named, error);
    }
    if (!read.started) {
      writer.append({ ...header(kind), ...(options.identity ?? {}), id });
      await writer.flush();
    }
    return writer;
  }

  /** Writes spaces from the end of the reserve to `at + reserveBytes`, when less than half of it is left. */
  private async renewReserve(): Promise<void> {
    if (this.reservedTo - this.at >= this.reserveBytes / 2) return;
    const to = this.at + this.reserveBytes;
    await this.file.writeAt(Buffer.alloc(to - this.reservedTo, 0x20), this.reservedTo);
    await this.file.datasync();
    this.reservedTo = to;
  }

  /** Queues one entry; it reaches the disk with its batch. */
  append(entry: JournalEntry): void {
    this.pending.push(`${JSON.stringify(entry)}\n`);
    this.unwritten += 1;
    // A failed batch is said through `failure` (and `onTrouble`), never as an unhandled rejection.
    if (this.pending.length >= this.batchSize) this.flush().catch(() => undefined);
    else this.timer ??= setTimeout(() => this.flush().catch(() => undefined), this.batchMs).unref();
  }

  /** Writes and syncs every entry queued so far; rejects (a FileError) if any write failed. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.pending;
    this.pending = [];
    if (lines.length > 0) {
      this.writing = this.writing.then(async () => {
        if (this.failure) return;
        const bytes = Buffer.from(lines.join(''));
        try {
          // Into the reserve (space already given); past it only when a batch is larger than what is left.
          await this.file.writeAt(bytes, this.at);
          await this.file.datasync();
        } catch (error) {
          this.failure = fileProblem(this.named, error) as FileError;
          this.troubled(this.failure);
          return;
        }
        this.at += bytes.byteLength;
        this.reservedTo = Math.max(this.reservedTo, this.at);
        this.unwritten -= lines.length;
        if (this.trouble) return;
        try {
          await this.renewReserve();
        } catch (error) {
          this.troubled(fileProblem(this.named, error) as FileError);
        }
      });
    }
    return this.writing.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  private troubled(error: FileError): void {
    if (this.trouble) return;
    this.trouble = error;
    this.onTrouble?.(error);
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      // The reserve goes: the file ends with its last whole entry.
      await this.file.truncate(this.at).catch(() => undefined);
      await this.file.close();
      await this.lock?.release();
    }
  }
}
