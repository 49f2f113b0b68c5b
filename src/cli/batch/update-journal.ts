// What an update-many journal says is done: the lines sent with success, each with the hash of the
// update it sent. Held in typed arrays by line number (9 bytes a line), so a journal of a million
// lines costs 9 MB, not a Map's tens.
import { EntryProblem, type JournalEntry } from './journal.js';

/** The highest line number a journal may name: 100 million lines (900 MB of these tables at most). */
export const MAX_JOURNAL_LINE = 100_000_000;

export type LineOutcome = 'ok' | 'failed' | 'invalid';

/** One journal line of update-many: no CPF, no account; the line number, its hash and its outcome. */
export interface UpdateJournalEntry {
  line: number;
  outcome: LineOutcome;
  /** The line's hash (input.ts `lineHash`), for a valid line. */
  hash?: string;
  status?: number;
  kind?: string;
}

/** A version 2 hash (64 bits of SHA-256) and, still read, a version 1 one (16 bits). */
const HASH = /^(?:[0-9a-f]{16}|[0-9a-f]{4})$/;

export class DoneLines {
  // By line number: 0 not done, 1 done with a 64-bit hash, 2 done with a 16-bit hash (a journal of version 1).
  private kind = new Uint8Array(1024);
  private hashes = new BigUint64Array(1024);
  private count = 0;

  /** The number of lines done. */
  get size(): number {
    return this.count;
  }

  /** Applies one journal entry: a later entry for the same line replaces an earlier one. */
  apply(entry: JournalEntry): void {
    const { line, outcome, hash } = entry as Partial<UpdateJournalEntry>;
    // Every entry this command writes names its input line; one that does not was edited or forged, and
    // skipping it would send that line again.
    if (!Number.isSafeInteger(line) || (line as number) < 1)
      throw new EntryProblem('names no input line (a whole number from 1)');
    const at = line as number;
    // A forged or corrupt number would otherwise size the table past what memory holds.
    if (at > MAX_JOURNAL_LINE)
      throw new EntryProblem(`names line ${at}, past the last line a journal can hold (${MAX_JOURNAL_LINE})`);
    const done = outcome === 'ok' && typeof hash === 'string' && HASH.test(hash);
    const kind = done ? (hash.length === 16 ? 1 : 2) : 0;
    if (at >= this.kind.length) {
      if (kind === 0) return;
      let size = this.kind.length;
      while (size <= at) size *= 2;
      const kinds = new Uint8Array(size);
      kinds.set(this.kind);
      const hashes = new BigUint64Array(size);
      hashes.set(this.hashes);
      this.kind = kinds;
      this.hashes = hashes;
    }
    const before = this.kind[at]!;
    this.kind[at] = kind;
    this.hashes[at] = done ? BigInt(`0x${hash}`) : 0n;
    this.count += (kind !== 0 ? 1 : 0) - (before !== 0 ? 1 : 0);
  }

  /** `done`: sent with success, same update; `changed`: done, but the line's update differs now; else undefined. */
  state(line: number, hash: string): 'done' | 'changed' | undefined {
    const kind = line < this.kind.length ? this.kind[line]! : 0;
    if (kind === 0) return undefined;
    // A version 1 journal kept 16 bits: what it can tell, it tells.
    const now = kind === 1 ? hash : hash.slice(0, 4);
    return now.length > 0 && BigInt(`0x${now}`) === this.hashes[line] ? 'done' : 'changed';
  }
}
