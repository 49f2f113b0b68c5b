// An append-only journal of JSON lines, shared by update-many and export-keys: what is done, so a
// rerun with the same journal skips it. Entries are written in small batches (every `batchSize`
// entries or `batchMs` milliseconds, and on close) and synced to disk. A crash can tear the last
// line only: reading ignores it, and the file is cut back to its last whole line before appending.
import { createReadStream } from 'node:fs';
import { type FileHandle, open, stat, truncate } from 'node:fs/promises';
import { UsageError } from '../command.js';

export type JournalKind = 'update-many' | 'export-keys';
export type JournalEntry = Record<string, unknown>;

export const JOURNAL_VERSION = 1;
const header = (kind: JournalKind) => ({ journal: kind, version: JOURNAL_VERSION });

/** A journal that cannot be this run's: a usage error (exit 2), since the flag names the wrong file. */
export class JournalError extends UsageError {
  override readonly name = 'JournalError';
}

export interface JournalRead {
  /** Bytes of whole lines: what is kept when the journal is written again. */
  bytes: number;
  /** Whether the file held a header at all (absent or empty: a new journal). */
  started: boolean;
}

/**
 * Reads the journal at `path` (a missing file is an empty journal), calling `onEntry` with each entry
 * after the header, in order. Throws JournalError when it is the journal of another command or when
 * a whole line is not JSON.
 */
export async function readJournal(
  path: string,
  kind: JournalKind,
  onEntry: (entry: JournalEntry) => void,
): Promise<JournalRead> {
  try {
    await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bytes: 0, started: false };
    throw error;
  }
  let bytes = 0;
  let lineNumber = 0;
  let started = false;
  let rest = Buffer.alloc(0);
  const take = (line: Buffer) => {
    lineNumber += 1;
    let entry: unknown;
    try {
      entry = JSON.parse(line.toString('utf8'));
    } catch {
      throw new JournalError(`the journal ${path}: line ${lineNumber} is not JSON (not a journal, or edited)`);
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new JournalError(`the journal ${path}: line ${lineNumber} is not a journal entry`);
    if (!started) {
      const { journal, version } = entry as JournalEntry;
      if (journal !== kind || version !== JOURNAL_VERSION)
        throw new JournalError(`the journal ${path} is not a ${kind} journal (version ${JOURNAL_VERSION})`);
      started = true;
    } else onEntry(entry as JournalEntry);
  };
  for await (const chunk of createReadStream(path)) {
    let data = Buffer.concat([rest, chunk as Buffer]);
    for (let end = data.indexOf(10); end >= 0; end = data.indexOf(10)) {
      take(data.subarray(0, end));
      bytes += end + 1;
      data = data.subarray(end + 1);
    }
    rest = Buffer.from(data);
  }
  // `rest` is a line torn by a crash mid-write: never complete, so never an outcome.
  return { bytes, started };
}

export interface JournalWriterOptions {
  batchSize?: number;
  batchMs?: number;
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
    // Cut a torn last line, so the next entry starts a line of its own.
    if (read.started) await truncate(path, read.bytes);
    const file = await open(path, read.started ? 'a' : 'w');
    const writer = new JournalWriter(file, options);
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
    }
  }
}
