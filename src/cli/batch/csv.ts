// A streaming RFC 4180 reader: records from chunks of bytes, one record in memory at a time. Quoted
// fields may hold commas, doubled quotes and line breaks; CRLF and LF both end a record. Small
// enough that a CSV library would not earn its place among the package's dependencies.
//
// It reads bytes, not text: the bytes that make the format (`,` `"` CR LF) are ASCII, which never
// occur inside a UTF-8 sequence, so each field's bytes are gathered (bounded, ./bounded-input.ts) and
// decoded strictly once whole. A record past the limit is read to its end without being kept, so the
// next record starts where it should and memory stays flat, even in an unclosed quote.
import { BoundedBytes, CR, LF, MAX_RECORD_BYTES, problemRule, type TextProblem } from './bounded-input.js';

export interface CsvRecord {
  /** The physical line (from 1) the record starts on, as an editor counts it. */
  line: number;
  fields: string[];
  /** Set when the record broke the format: what is wrong, in words (never the text). */
  malformed?: string;
  /** Set when the record is too long or not UTF-8 (`malformed` then says so too): its fields are dropped. */
  problem?: TextProblem;
}

// Where the reader is inside a field. `quote` is a quote seen inside a quoted field: the next
// character says whether it was doubled (one literal quote) or closed the field.
type State = 'start' | 'plain' | 'quoted' | 'quote' | 'closed';

const COMMA = 44;
const QUOTE = 34;

export interface CsvOptions {
  /** The longest field or record, in bytes (default MAX_RECORD_BYTES); a test lowers it. */
  maxRecordBytes?: number;
}

/** Records of `chunks` in order; an empty line is no record. */
export async function* csvRecords(
  chunks: AsyncIterable<Uint8Array | string>,
  options: CsvOptions = {},
): AsyncGenerator<CsvRecord> {
  const limit = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  // The record's fields, one after the other (decoded once, when the record ends), and where each ends.
  const field = new BoundedBytes(limit);
  let ends: number[] = [];
  let state: State = 'start';
  let malformed: string | undefined;
  let line = 1;
  let recordLine = 1;
  let afterCr = false;
  // Whether anything (a separator, a byte of a field) was seen since the record began.
  let begun = false;

  const endField = () => {
    // Past the limit, nothing more is noted: the record is read to its end and dropped.
    if (!field.over) ends.push(field.size);
  };

  const take = (): CsvRecord | undefined => {
    if (!begun) return undefined;
    endField();
    // The fields and the commas between them.
    const over = field.over || field.size + ends.length - 1 > limit;
    const read = over ? { problem: 'too-long' as const } : field.takeParts(ends);
    field.reset();
    const record: CsvRecord =
      'problem' in read
        ? { line: recordLine, fields: [], malformed: problemRule(read.problem, limit), problem: read.problem }
        : { line: recordLine, fields: read.parts, ...(malformed ? { malformed } : {}) };
    ends = [];
    state = 'start';
    malformed = undefined;
    begun = false;
    return record;
  };

  const encoder = new TextEncoder();
  for await (const raw of chunks) {
    const chunk = typeof raw === 'string' ? encoder.encode(raw) : raw;
    // A field's bytes are taken a run at a time: from `run` up to the next byte that is no part of it.
    let run = -1;
    const content = (i: number) => {
      if (run < 0) run = i;
    };
    const cut = (i: number) => {
      if (run >= 0) field.append(chunk.subarray(run, i));
      run = -1;
    };
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      // The LF of a CRLF: one line break, not two.
      const crlf = afterCr && c === LF;
      afterCr = c === CR;
      if (state === 'quote') {
        if (c === QUOTE) {
          // The second of a doubled quote: one literal quote.
          content(i);
          state = 'quoted';
          continue;
        }
        state = 'closed';
      }
      if (state === 'quoted') {
        if (c === QUOTE) {
          cut(i);
          state = 'quote';
        } else {
          if (c === CR || (c === LF && !crlf)) line += 1;
          content(i);
        }
        continue;
      }
      if (crlf) {
        cut(i);
        continue;
      }
      if (c === COMMA) {
        cut(i);
        begun = true;
        endField();
        state = 'start';
      } else if (c === LF || c === CR) {
        cut(i);
        const record = take();
        line += 1;
        recordLine = line;
        if (record) yield record;
      } else if (c === QUOTE && state === 'start') {
        cut(i);
        begun = true;
        state = 'quoted';
      } else {
        begun = true;
        if (c === QUOTE) malformed ??= 'a quote inside a field that does not start with one';
        else if (state === 'closed') malformed ??= 'text after the closing quote of a field';
        if (state === 'start') state = 'plain';
        content(i);
      }
    }
    cut(chunk.length);
  }
  if (state === 'quoted') malformed ??= 'a quoted field is never closed';
  const last = take();
  if (last) yield last;
}
