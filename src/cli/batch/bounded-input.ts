// Reading input of any size in bounded memory: the one place the batch commands read files a user or a
// crash may have made arbitrarily large (CSV and JSONL input, journals). A line or record is kept only
// up to its limit (past it, bytes are counted and dropped, so memory stays flat), its pieces are joined
// once (time linear in the size), and its text is decoded strictly: bytes that are not UTF-8 are refused,
// never turned into U+FFFD and sent. src/body-limit.ts is the same idea for HTTP bodies.

/** The longest CSV field or record, JSONL line or journal line read: 1 MiB. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** What keeps a line or record from being read: past the limit, or not UTF-8. */
export type TextProblem = 'too-long' | 'not-utf8';

/** The words for a problem, as a line's rule: `is longer than 1 MiB (1048576 bytes)`. */
export const problemRule = (problem: TextProblem, limit: number): string =>
  problem === 'too-long'
    ? `is longer than ${limit === MAX_RECORD_BYTES ? '1 MiB' : `${limit} bytes`} (${limit} bytes); split it or shorten it`
    : 'is not valid UTF-8; save the file as UTF-8';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes gathered up to `limit`: past it only counted. Decoded strictly, once, at the end. */
export class BoundedBytes {
  private pieces: Uint8Array[] = [];
  private kept = 0;
  /** Every byte appended since the last reset, kept or not. */
  size = 0;

  constructor(readonly limit: number) {}

  get over(): boolean {
    return this.size > this.limit;
  }

  append(bytes: Uint8Array): void {
    this.size += bytes.byteLength;
    if (this.size > this.limit) {
      // Over the limit: what was kept is no longer needed either.
      this.pieces = [];
      this.kept = 0;
      return;
    }
    // A copy: the caller's chunk may be reused by the stream, and a subarray would pin it whole.
    this.pieces.push(bytes.slice());
    this.kept += bytes.byteLength;
  }

  /** The text, or the problem that keeps it from being read; empties the buffer. */
  take(): { text: string } | { problem: TextProblem } {
    const read = this.takeParts([this.size]);
    return 'problem' in read ? read : { text: read.parts[0]! };
  }

  /**
   * The text cut at byte offsets `ends` (each part ends where the next begins; the last at the end),
   * or the problem that keeps it from being read; empties the buffer. Decoded once: split as a string
   * when every character is one byte, else part by part.
   */
  takeParts(ends: readonly number[]): { parts: string[] } | { problem: TextProblem } {
    const over = this.over;
    const pieces = this.pieces;
    const kept = this.kept;
    this.reset();
    if (over) return { problem: 'too-long' };
    let bytes: Uint8Array;
    if (pieces.length === 1) bytes = pieces[0]!;
    else {
      bytes = new Uint8Array(kept);
      let at = 0;
      for (const piece of pieces) {
        bytes.set(piece, at);
        at += piece.byteLength;
      }
    }
    try {
      const text = strict.decode(bytes);
      const parts: string[] = [];
      let from = 0;
      for (const end of ends) {
        parts.push(text.length === kept ? text.slice(from, end) : strict.decode(bytes.subarray(from, end)));
        from = end;
      }
      return { parts };
    } catch {
      return { problem: 'not-utf8' };
    }
  }

  reset(): void {
    this.pieces = [];
    this.kept = 0;
    this.size = 0;
  }
}

export interface BoundedLine {
  /** Counted from 1. */
  number: number;
  /** The line's text without its line break (a CR before the LF dropped), when it could be read. */
  text?: string;
  problem?: TextProblem;
  /** Bytes of the line with its LF: where the next line starts, counted from this one's start. */
  bytes: number;
  /** The line ended with an LF (false only for a last line without one: perhaps torn by a crash). */
  ended: boolean;
}

const LF = 10;
const CR = 13;

const bytesOf = (chunk: Uint8Array | string): Uint8Array =>
  typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;

/** The lines of a byte stream split at LF, each bounded by `limit` bytes and decoded strictly. */
export async function* boundedLines(
  source: AsyncIterable<Uint8Array | string>,
  limit: number = MAX_RECORD_BYTES,
): AsyncGenerator<BoundedLine> {
  const line = new BoundedBytes(limit + 1); // + 1: room for the CR of a CRLF
  let number = 0;
  const finish = (ended: boolean): BoundedLine => {
    number += 1;
    const bytes = line.size + (ended ? 1 : 0);
    const read = line.take();
    if ('problem' in read) return { number, problem: read.problem, bytes, ended };
    const text = read.text.endsWith('\r') ? read.text.slice(0, -1) : read.text;
    // The CR's extra byte of room is for a CR only.
    if (Buffer.byteLength(text) > limit) return { number, problem: 'too-long', bytes, ended };
    return { number, text, bytes, ended };
  };
  for await (const raw of source) {
    const chunk = bytesOf(raw);
    let from = 0;
    for (let end = chunk.indexOf(LF); end >= 0; end = chunk.indexOf(LF, from)) {
      line.append(chunk.subarray(from, end));
      from = end + 1;
      yield finish(true);
    }
    if (from < chunk.byteLength) line.append(chunk.subarray(from));
  }
  if (line.size > 0) yield finish(false);
}

export { CR, LF };
