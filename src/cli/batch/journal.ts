// An append-only journal of JSON lines, shared by update-many and export-keys: what is done, so a
// rerun with the same journal skips it. Entries are written in small batches (every `batchSize`
// entries or `batchMs` milliseconds, and on close) and synced to disk. A crash can tear the last
// line only: reading ignores it, and the file is cut back to its last whole line before appending.
// Its files are opened through ./files.ts (no links, 0600, held by one run: `JournalLock`), and it is
// read through ./bounded-input.ts (lines bounded, in time linear in its size).
import type { FileHandle } from 'node:fs/promises';
import { UsageError } from '../command.js';
import { boundedLines, MAX_RECORD_BYTES } from './bounded-input.js';
import { createNew, type JournalLock, type NamedFile, openOwn, readBytes, writableFile } from '../../files.js';

export type JournalKind = 'update-many' | 'export-keys';
export type JournalEntry = Record<string, unknown>;

export const JOURNAL_VERSION = 1;
const header = (kind: JournalKind) => ({ journal: kind, version: JOURNAL_VERSION });

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
      const { journal, version } = entry as JournalEntry;
      if (journal !== kind || version !== JOURNAL_VERSION)
        throw new JournalError(
          `--journal ${path} is not an ${kind} journal (version ${JOURNAL_VERSION}); give the journal this command wrote, or a new file`,
        );
      started = true;
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
  return { bytes, started, exists: true };
}

export interface JournalWriterOptions {
  batchSize?: number;
  batchMs?: number;
  /** The journal's lock, released when the writer closes. */
  lock?: JournalLock;
}

/** Appends entries to a journal read by `readJournal` (its `read` answer), in small synced batches. */
export class JournalWriter {
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly batchSize: number;
  private readonly batchMs: number;

  private constructor(
    private readonly file: FileHandle,
    options: JournalWriterOptions,
    private readonly lock: JournalLock | undefined,
  ) {
    this.batchSize = options.batchSize ?? 50;
    this.batchMs = options.batchMs ?? 200;
  }

  static async open(
    path: string,
    kind: JournalKind,
    read: JournalRead,
    options: JournalWriterOptions = {},
  ): Promise<JournalWriter> {
    const named: NamedFile = { flag: '--journal', path };
    const file = read.exists ? await openOwn(named) : await createNew(named, 'try again');
    // Cut a torn last line, so the next entry starts a line of its own (writes append after it).
    if (read.exists) await file.truncate(read.bytes);
    const writer = new JournalWriter(file, options, options.lock);
    if (!read.started) {
      writer.append(header(kind));
      await writer.flush();
    }
    return writer;
  }

  /** Queues one entry; it reaches the disk with its batch. */
  append(entry: JournalEntry): void {
    this.pending.push(`${JSON.stringify(entry)}\n`);
    if (this.pending.length >= this.batchSize) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.batchMs).unref();
  }

  /** Writes and syncs every entry queued so far; rejects if any write failed. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.pending;
    this.pending = [];
    if (lines.length > 0) {
      this.writing = this.writing.then(async () => {
        if (this.failure) return;
        try {
          await this.file.write(lines.join(''));
          await this.file.datasync();
        } catch (error) {
          this.failure = error;
        }
      });
    }
    return this.writing.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.file.close();
      await this.lock?.release();
    }
  }
}
