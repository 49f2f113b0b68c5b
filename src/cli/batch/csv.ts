// A streaming RFC 4180 reader: records from chunks of text, one record in memory at a time. Quoted
// fields may hold commas, doubled quotes and line breaks; CRLF and LF both end a record. Small
// enough that a CSV library would not earn its place among the package's dependencies.

export interface CsvRecord {
  /** The physical line (from 1) the record starts on, as an editor counts it. */
  line: number;
  fields: string[];
  /** Set when the record broke the format: what is wrong, in words (never the text). */
  malformed?: string;
}

// Where the reader is inside a field. `quote` is a quote seen inside a quoted field: the next
// character says whether it was doubled (one literal quote) or closed the field.
type State = 'start' | 'plain' | 'quoted' | 'quote' | 'closed';

/** Records of `chunks` in order; an empty line is no record. */
export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let fields: string[] = [];
  let field = '';
  let state: State = 'start';
  let malformed: string | undefined;
  let line = 1;
  let recordLine = 1;
  let afterCr = false;

  const take = (): CsvRecord | undefined => {
    const empty = fields.length === 0 && field === '' && state === 'start';
    const record = empty
      ? undefined
      : { line: recordLine, fields: [...fields, field], ...(malformed ? { malformed } : {}) };
    fields = [];
    field = '';
    state = 'start';
    malformed = undefined;
    return record;
  };

  for await (const chunk of chunks) {
    for (const c of chunk) {
      // The LF of a CRLF: one line break, not two.
      const crlf = afterCr && c === '\n';
      afterCr = c === '\r';
      if (state === 'quote') {
        if (c === '"') {
          field += '"';
          state = 'quoted';
          continue;
        }
        state = 'closed';
      }
      if (state === 'quoted') {
        if (c === '"') state = 'quote';
        else {
          if (c === '\r' || (c === '\n' && !crlf)) line += 1;
          field += c;
        }
        continue;
      }
      if (crlf) continue;
      if (c === ',') {
        fields.push(field);
        field = '';
        state = 'start';
      } else if (c === '\n' || c === '\r') {
        const record = take();
        line += 1;
        recordLine = line;
        if (record) yield record;
      } else if (c === '"' && state === 'start') {
        state = 'quoted';
      } else {
        if (c === '"') malformed ??= 'a quote inside a field that does not start with one';
        else if (state === 'closed') malformed ??= 'text after the closing quote of a field';
        if (state === 'start') state = 'plain';
        field += c;
      }
    }
  }
  if (state === 'quoted') malformed ??= 'a quoted field is never closed';
  const last = take();
  if (last) yield last;
}
