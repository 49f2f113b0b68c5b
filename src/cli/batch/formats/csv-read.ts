// CSV records read by csv-parse from text already decoded (./encoding.ts), streamed: one record in
// memory at a time, each bounded (`max_record_size`), so memory stays flat whatever the file holds.
// Any separator a spreadsheet writes (`,` in English, `;` in Portuguese, TAB, `|`) is found from the
// header row; quotes, doubled quotes, line breaks inside quotes, CRLF, LF and a byte order mark are
// csv-parse's. Each record is numbered by the line it starts on, as an editor counts lines.
//
// A record that breaks the format (a stray or unclosed quote) or is longer than the bound stops the
// reading with one CsvProblem naming its line: past it, where records start is no longer known (an
// unclosed quote makes the rest of the file one field), so nothing of the file is sent.
import { Readable } from 'node:stream';
import { type CsvError, type Options, parse } from 'csv-parse';
import { MAX_RECORD_BYTES, problemRule } from '../bounded-input.js';

export interface CsvRecord {
  /** The physical line (from 1) the record starts on. */
  line: number;
  fields: string[];
  /**
   * A worksheet's number cells that may not hold the digits typed (indexes from 0): an integer of 16 digits
   * or more, of which a spreadsheet keeps 15 (the rest become zeros). Never in a CSV record, whose cells are text.
   */
  inexact?: number[];
  /**
   * A worksheet's number cells shown with leading zeros by their format (`00000000000`, `000.000.000-00`,
   * `00000-000`): index (from 0) to the number of zeros the format shows, digits included. Never in a CSV record.
   */
  shownDigits?: Map<number, number>;
}

/** A record that stops the reading: its line and what is wrong, in words (never its text). */
export class CsvProblem extends Error {
  constructor(
    readonly line: number,
    readonly rule: string,
  ) {
    super(`line ${line} ${rule}`);
    this.name = 'CsvProblem';
  }
}

export interface CsvReadOptions {
  /** The longest record, in bytes of UTF-8 (default MAX_RECORD_BYTES); a test lowers it. */
  maxRecordBytes?: number;
}

/** The separators a spreadsheet writes, in the order a tie is settled. */
export const SEPARATORS = [',', ';', '\t', '|'] as const;

/** The separator of a header row: the one that occurs most often outside quotes (a comma when none does). */
export function separatorOf(headerLine: string): string {
  const unquoted = headerLine.replace(/"(?:[^"]|"")*"?/g, '');
  let best: string = SEPARATORS[0];
  let most = 0;
  for (const separator of SEPARATORS) {
    const count = unquoted.split(separator).length - 1;
    if (count > most) {
      best = separator;
      most = count;
    }
  }
  return best;
}

// Line breaks inside a field, counted as an editor counts them: CRLF, CR or LF is one.
const BREAKS = /\r\n|\r|\n/g;
const breaksIn = (fields: readonly string[]): number =>
  fields.reduce((sum, field) => sum + (field.match(BREAKS)?.length ?? 0), 0);

/** What a csv-parse error means, in words that name no value (its own message quotes the field). */
function ruleOf(error: CsvError, limit: number): string {
  switch (error.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return `${problemRule('too-long', limit)} (a quote that is never closed makes the rest of the file one field)`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'is not CSV: a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'is not CSV: text after the closing quote of a field (a quote inside a field is written twice, "")';
    case 'INVALID_OPENING_QUOTE':
      return 'is not CSV: a quote inside a field that does not start with one (quote the field and write the quote twice, "")';
    default:
      return `is not CSV (${error.code})`;
  }
}

/**
 * Where the first record ends in `chunk`, the next chunk of a text (inside quotes at its start or not),
 * so that each chunk is read once: the first line break outside quotes, or -1 when none is in it. A
 * doubled quote inside a quoted field toggles twice, so counting quotes is enough.
 */
function scanRecordEnd(chunk: string, quotedAtStart: boolean): { end: number; quoted: boolean } {
  let quoted = quotedAtStart;
  for (let i = 0; i < chunk.length; i++) {
    const char = chunk[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\r' || char === '\n')) return { end: i, quoted };
  }
  return { end: -1, quoted };
}

/**
 * The first chunks of `text`, up to the end of the first record (the header row, line breaks inside its
 * quotes included) or past `limit` characters: enough to find the separator. `headerRow` is that record.
 */
async function peekHeader(
  text: AsyncIterator<string>,
  limit: number,
): Promise<{ head: string; headerRow: string; ended: boolean }> {
  let head = '';
  let quoted = false;
  while (head.length <= limit) {
    const next = await text.next();
    if (next.done) return { head, headerRow: head, ended: true };
    const scan = scanRecordEnd(next.value, quoted);
    quoted = scan.quoted;
    const headerRow = scan.end < 0 ? undefined : head + next.value.slice(0, scan.end);
    head += next.value;
    if (headerRow !== undefined) return { head, headerRow, ended: false };
  }
  return { head, headerRow: head, ended: false };
}

/** The records of decoded `text`, in order; an empty line, or a row of only separators, is no record. */
export async function* csvRecords(
  text: AsyncIterable<string>,
  options: CsvReadOptions = {},
): AsyncGenerator<CsvRecord> {
  const limit = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  const source = text[Symbol.asyncIterator]();
  // The header row whole: cut at its first line break, one inside quotes would hide the separators after it.
  const { head, headerRow, ended } = await peekHeader(source, limit);
  async function* all(): AsyncGenerator<string> {
    if (head !== '') yield head;
    if (ended) return;
    for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
  }
  // Where the next record starts: after the last one's end and the empty lines csv-parse skipped.
  // Counted in on_record, which csv-parse calls as it parses, so that a record that stops the reading
  // is numbered after every record before it, even those not yet read from the stream.
  let nextLine = 1;
  let emptySeen = 0;
  const parser = parse({
    delimiter: separatorOf(headerRow),
    // CRLF as one line break, then LF or CR alone, in any mix (csv-parse would otherwise keep the first it sees).
    record_delimiter: ['\r\n', '\n', '\r'],
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // csv-parse refuses a character when the record already holds more than this: so a record of
    // `limit` bytes is read, and one of `limit` + 1 refused.
    max_record_size: limit - 1,
    on_record: (record: string[], context: { empty_lines: number }) => {
      const line = nextLine + (context.empty_lines - emptySeen);
      emptySeen = context.empty_lines;
      nextLine = line + breaksIn(record) + 1;
      // A spreadsheet saves its empty rows as separators only (`;;;;`): no record either.
      return record.every((field) => field === '') ? null : { line, fields: record };
    },
  } as Options);
  const input = Readable.from(all());
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  try {
    for await (const record of parser as AsyncIterable<CsvRecord>) yield record;
  } catch (error) {
    const csvError = error as CsvError & { empty_lines?: number };
    if (typeof csvError?.code !== 'string' || !/^(CSV_|INVALID_)/.test(csvError.code)) throw error;
    throw new CsvProblem(nextLine + ((csvError.empty_lines ?? emptySeen) - emptySeen), ruleOf(csvError, limit));
  } finally {
    input.destroy();
    parser.destroy();
  }
}
