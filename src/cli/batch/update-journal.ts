// What an update-many journal says is done: the lines sent with success, each with the hash of the
// update it sent. Held in a typed array by line number (4 bytes a line), so a journal of a million
// lines costs 4 MB, not a Map's tens.
import { EntryProblem, type JournalEntry } from './journal.js';

/** The highest line number a journal may name: 100 million lines (400 MB of this table at most). */
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

export class DoneLines {
  // 0: not done; else 1 + the 16-bit hash of the update that was sent.
  private done = new Uint32Array(1024);
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
    const value =
      outcome === 'ok' && typeof hash === 'string' && /^[0-9a-f]{4}$/.test(hash) ? 1 + Number.parseInt(hash, 16) : 0;
    if (at >= this.done.length) {
      if (value === 0) return;
      let size = this.done.length;
      while (size <= at) size *= 2;
      const grown = new Uint32Array(size);
      grown.set(this.done);
      this.done = grown;
    }
    const before = this.done[at]!;
    this.done[at] = value;
    this.count += (value !== 0 ? 1 : 0) - (before !== 0 ? 1 : 0);
  }

  /** `done`: sent with success, same update; `changed`: done, but the line's update differs now; else undefined. */
  state(line: number, hash: string): 'done' | 'changed' | undefined {
    const value = line < this.done.length ? this.done[line]! : 0;
    if (value === 0) return undefined;
    return value === 1 + Number.parseInt(hash, 16) ? 'done' : 'changed';
  }
}
