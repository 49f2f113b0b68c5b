// The input of update-many, line by line, streamed (never read whole): JSONL, one
// {"account","documentNumber","body"} per line, or CSV with the columns Account, DocumentNumber and
// the body's fields in dotted form (address.city). Each line comes out as an update to send or as
// the issues that keep it from being sent (field and rule, never the value).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { UpdateItem } from '../../batch/results.js';
import {
  canonicalUpdate,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
} from '../../validation/index.js';
import { boundedLines, MAX_RECORD_BYTES, problemRule } from './bounded-input.js';
import { UsageError } from '../command.js';
import { redactMessage } from '../../redact.js';
import { plural } from '../../words.js';
import {
  ACCOUNT,
  BODY_COLUMNS,
  DOCUMENT_NUMBER,
  fixedDigits,
  isPrintableName,
  knownColumns,
  matchHeader,
  shownName,
} from './formats/columns.js';
import { type CsvRecord, CsvProblem, csvRecords } from './formats/csv-read.js';
import { decodedText, EncodingProblem, encodingMessage, type InputEncoding } from './formats/encoding.js';
import { MAX_EXACT_NUMBER_DIGITS, xlsxRecords } from './formats/xlsx-read.js';

export type { UpdateItem };

/** A field of a line and the rule it broke. */
export interface LineIssue {
  field: string;
  rule: string;
}

export interface InputLine {
  /** Counted from 1, as an editor counts lines (for CSV, the line a record starts on; the header is line 1). */
  line: number;
  /** The update, when the line is valid. */
  item?: UpdateItem;
  /** Why the line cannot be sent, when it is not valid. */
  issues?: LineIssue[];
  /** A short hash of the update (not of its spelling), so a journal can tell a line that changed. */
  hash?: string;
}

/** The field of an issue that concerns the whole line (its syntax), not one field of it. */
export const WHOLE_LINE = '(line)';

export type InputFormat = 'jsonl' | 'csv' | 'xlsx';

/** The format a name gives: .csv CSV, .xlsx a workbook, any other JSONL. */
export const formatOf = (path: string): InputFormat =>
  /\.csv$/i.test(path) ? 'csv' : /\.xlsx$/i.test(path) ? 'xlsx' : 'jsonl';

/** Spreadsheet files read as none of those: said at once, with what to save instead. */
const OTHER_SHEETS = /\.(xls|xlsm|xlsb|ods|fods|numbers)$/i;

/** Body fields that are booleans, from the contract: a cell TRUE or FALSE (VERDADEIRO, FALSO) becomes one. */
export const CSV_BOOLEAN_FIELDS: ReadonlySet<string> = new Set(
  [...BODY_COLUMNS()].filter(([, type]) => type === 'boolean').map(([name]) => name),
);

const JSONL_FIELDS = ['account', 'documentNumber', 'body'] as const;

/**
 * 64 bits of SHA-256 (16 hex digits): a changed line is never taken for the one done (a collision is
 * one in 2^64). It names no CPF: the 11 digits have too few values to hide behind a bare hash, but the
 * hash covers the whole update (account and body too), never the CPF alone.
 */
export const LINE_HASH_HEX = 16;
export const lineHash = (item: UpdateItem): string =>
  createHash('sha256')
    .update(JSON.stringify([item.account, item.documentNumber, item.body]))
    .digest('hex')
    .slice(0, LINE_HASH_HEX);

// A body issue's path is a JSON pointer (/address/city); the input names fields its own way.
function bodyIssues(body: unknown, name: (pointer: string) => string): LineIssue[] {
  return validateNaturalPersonUpdate(body).map((issue) => ({ field: name(issue.path), rule: issue.rule }));
}

/** Checks one update as the client would before sending it; the fields named as the input names them. */
function checked(
  line: number,
  account: unknown,
  documentNumber: unknown,
  body: unknown,
  names: { account: string; documentNumber: string; body: (pointer: string) => string },
  earlier: LineIssue[] = [],
): InputLine {
  const issues = [...earlier];
  // Identifiers as people write them (`529.982.247-25`, `01310-100`, `+55 (11) 98765-4321`) are taken
  // in the contract's form, by the rule every surface follows (src/validation/identifiers.ts).
  const canonical = canonicalUpdate({ Account: account, DocumentNumber: documentNumber }, body);
  for (const issue of validateUpdateNaturalPersonQuery(canonical.query)) {
    const field =
      issue.path === 'Account' ? names.account : issue.path === 'DocumentNumber' ? names.documentNumber : '';
    // A field already refused in the input's own words (a CPF that lost its zeros) is not refused twice.
    if (field !== '' && earlier.some((said) => said.field === field)) continue;
    issues.push({ field, rule: issue.path === '' ? issue.message : issue.rule });
  }
  // A body already refused (missing) is not refused again for what a missing body lacks.
  for (const issue of bodyIssues(canonical.body, names.body))
    if (!earlier.some((said) => said.field === issue.field)) issues.push(issue);
  if (issues.length > 0) return { line, issues };
  const item = { account, documentNumber: canonical.query.DocumentNumber, body: canonical.body } as UpdateItem;
  return { line, item, hash: lineHash(item) };
}

const pointerToDotted = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

const JSONL_NAMES = {
  account: 'account',
  documentNumber: 'documentNumber',
  body: (pointer: string) => (pointer === '' ? 'body' : `body.${pointerToDotted(pointer)}`),
};

const SHOWN_KEYS = 3;

/**
 * The keys of a JSONL line that are none of its three, each with the one meant: the same name in another
 * case (`Account`, a CSV's column name), or a body field written beside the body (`email`). Names only,
 * never values; a key that is no name (digits, a CPF) is counted, not shown.
 */
function unknownKeysRule(keys: string[]): string {
  const bodyFields = new Set([...BODY_COLUMNS().keys()].map((column) => column.split('.')[0]!.toLowerCase()));
  const shown = keys.slice(0, SHOWN_KEYS).filter(isPrintableName);
  const named = shown.map((name) => {
    const meant = JSONL_FIELDS.find((field) => field.toLowerCase() === name.trim().toLowerCase());
    if (meant !== undefined) return `"${name}" (did you mean ${meant}?)`;
    return bodyFields.has(name.trim().toLowerCase()) ? `"${name}" (a body field: put it inside "body")` : `"${name}"`;
  });
  const hidden = Math.min(keys.length, SHOWN_KEYS) - shown.length;
  if (hidden > 0) named.push(hidden === 1 ? 'one whose name is not shown' : `${hidden} whose names are not shown`);
  const more = keys.length > SHOWN_KEYS ? ` and ${keys.length - SHOWN_KEYS} more` : '';
  const listed =
    named.length > 1 && more === '' ? `${named.slice(0, -1).join(', ')}, ${named.at(-1)}` : named.join(', ');
  return `has ${keys.length === 1 ? 'a field' : 'fields'} it does not know: ${listed}${more} (${JSONL_FIELDS.join(', ')} only)`;
}

/** The value at a JSONL field as an issue names it (`account`, `body.address.postalCode`). */
function valueAt(record: Record<string, unknown>, field: string): unknown {
  let node: unknown = record;
  for (const key of field.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The column a JSONL field is in a CSV (`documentNumber` is DocumentNumber, `body.address.postalCode` address.postalCode). */
const csvColumnOf = (field: string): string =>
  field === JSONL_NAMES.account ? ACCOUNT : field === JSONL_NAMES.documentNumber ? DOCUMENT_NUMBER : field.slice(5);

/**
 * The rule for a JSONL field written as a JSON number where the contract takes a string: quote it, as
 * the example shows. An identifier's digits (an account, a CPF, a CEP) lose their leading zeros as a
 * number, so a value that had them cannot be recovered: nothing is quoted or padded for the user.
 * Never the value itself (it may be a CPF); a fixed-length example is cut short, as the terminal would
 * mask it whole (`shortExample`).
 */
export function numberForStringRule(field: string): string {
  const key = field.split('.').at(-1)!;
  const digits = fixedDigits(csvColumnOf(field));
  const quote = 'must be a string, not a JSON number: write';
  if (digits !== undefined)
    return `${quote} its ${digits.length} digits in quotes, leading zeros included, as in "${key}": "${shortExample(digits.example)}" (as a number, ${shortExample(digits.example)} becomes ${shortExample(digits.example.replace(/^0+/, ''))}); nothing is padded for you`;
  if (field === JSONL_NAMES.account)
    return `${quote} its digits in quotes, as in "${key}": "300541976902" (as a number, leading zeros are lost)`;
  return `${quote} it in quotes, as in "${key}": "…"`;
}

/** One JSONL line; undefined for a blank one. */
export function jsonLine(line: number, text: string): InputLine | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text, which may hold a CPF.
    return { line, issues: [{ field: WHOLE_LINE, rule: 'is not valid JSON' }] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { line, issues: [{ field: WHOLE_LINE, rule: 'must be a JSON object' }] };
  const record = value as Record<string, unknown>;
  const strangers = Object.keys(record).filter((name) => !(JSONL_FIELDS as readonly string[]).includes(name));
  const unknown: LineIssue[] = strangers.length > 0 ? [{ field: WHOLE_LINE, rule: unknownKeysRule(strangers) }] : [];
  if (!('body' in record)) unknown.push({ field: 'body', rule: 'is required' });
  const body = 'body' in record ? record.body : {};
  const result = checked(line, record.account, record.documentNumber, body, JSONL_NAMES, unknown);
  // A number where a string goes (`"account": 12345`): said with the quoted form to write instead.
  if (result.issues)
    result.issues = result.issues.map((issue) =>
      issue.rule === 'must be a string' && typeof valueAt(record, issue.field) === 'number'
        ? { field: issue.field, rule: numberForStringRule(issue.field) }
        : issue,
    );
  return result;
}

const CSV_NAMES = {
  account: 'Account',
  documentNumber: 'DocumentNumber',
  body: (pointer: string) => (pointer === '' ? '(body)' : pointerToDotted(pointer)),
};

/** Sets `value` at the dotted `path` of `target`; false when a segment is taken by a value already. */
function setDotted(target: Record<string, unknown>, path: string, value: unknown): boolean {
  const segments = path.split('.');
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (next === undefined) {
      const child: Record<string, unknown> = {};
      Object.defineProperty(node, segment, { value: child, enumerable: true, writable: true, configurable: true });
      node = child;
    } else if (next !== null && typeof next === 'object') node = next as Record<string, unknown>;
    else return false;
  }
  Object.defineProperty(node, segments.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
  return true;
}

const REQUIRED_COLUMNS = [ACCOUNT, DOCUMENT_NUMBER] as const;
/** Unknown columns a header's refusal names at most; it counts the rest. */
export const SHOWN_UNKNOWN_COLUMNS = 20;

/**
 * What is wrong with a header row, said once for the file rather than once a line: a first row of data
 * (no header), a name that is no column of the contract (with the nearest one), a column named twice,
 * or no Account or DocumentNumber. Names are matched without regard to case (`Email` is email).
 */
export function headerProblem(header: readonly string[]): string | undefined {
  const needs = `the header needs the columns ${ACCOUNT} and ${DOCUMENT_NUMBER}, then the fields to update (email, address.city, …)`;
  if (header.some((name) => /^[0-9.\-/ ]+$/.test(name) && /[0-9]/.test(name)))
    return `it looks like data, not a header row: add a first line naming the columns; ${needs}`;
  const match = matchHeader(header);
  if ('unknown' in match) {
    // The first few named, then how many more: a header of 10,000 unknown columns is one line, not 240 kB.
    const named = match.unknown
      .slice(0, SHOWN_UNKNOWN_COLUMNS)
      .map((cell) => `${shownName(cell)}${cell.nearest ? ` (did you mean ${cell.nearest}?)` : ''}`);
    const more = match.unknown.length - named.length;
    if (more > 0) named.push(`and ${plural(more, 'more column')}`);
    return `${named.join(', ')} ${match.unknown.length === 1 ? 'is no column' : 'are no columns'} of the update; the columns are ${knownColumns().join(', ')}`;
  }
  const twice = match.columns.find((column, index) => match.columns.indexOf(column) !== index);
  if (twice !== undefined) return `the column ${twice} is named twice; keep one; ${needs}`;
  const missing = REQUIRED_COLUMNS.filter((column) => !match.columns.includes(column));
  if (missing.length > 0) return `no ${missing.join(' and no ')} column; ${needs}`;
  return undefined;
}

/** `TRUE`/`FALSE` as spreadsheets write them (Excel, LibreOffice, in English or Portuguese), any case. */
const BOOLEAN_CELLS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['verdadeiro', true],
  ['falso', false],
]);

/** A boolean column's cell as a boolean, or undefined when it is none. */
export const booleanCell = (cell: string): boolean | undefined => BOOLEAN_CELLS.get(cell.trim().toLowerCase());

const BOOLEAN_RULE = 'must be TRUE or FALSE (VERDADEIRO or FALSO, true or false; any case), or empty to leave it';

// The example's first digits only: the terminal and the report mask any CPF-shaped run of digits, so a whole
// 11-digit example would show as "*********90", hiding the very zero it is there to show.
const shortExample = (digits: string): string => `${digits.slice(0, 4)}…`;

/**
 * A cell of digits only, shorter than the fixed number of digits its column takes: what a spreadsheet
 * that took the column for numbers leaves of a value that began with zeros. Refused, never padded: a
 * value padded silently might be another person's.
 */
export function lostZerosRule(column: string, cell: string): string | undefined {
  const digits = fixedDigits(column);
  if (digits === undefined || !/^[0-9]+$/.test(cell) || cell.length >= digits.length) return undefined;
  return (
    `has ${cell.length} digits, not ${digits.length}: a spreadsheet that took the column for numbers drops leading zeros ` +
    `(${shortExample(digits.example)} becomes ${shortExample(digits.example.replace(/^0+/, ''))}); nothing is padded for you. ${KEEP_AS_TEXT} ` +
    'and type the value with its zeros'
  );
}

const KEEP_AS_TEXT =
  'Keep the column as text (LibreOffice: column type "Text" when opening the CSV; Excel: Data > From Text/CSV, column type "Text"; ' +
  'or save as .xlsx with the column formatted as Text)';

/**
 * A cell whose digits a spreadsheet may have changed: a worksheet's number cell of 16 digits or more (it
 * keeps 15), or a CSV cell in the scientific notation a spreadsheet writes a long number in (`1,23457E+16`,
 * `1.23457E+016`), which has lost every digit past the ones shown. Refused, never read as digits: an
 * account number with its last digits changed is another account.
 */
export function inexactNumberRule(cell: string, numberCell: boolean): string | undefined {
  if (numberCell)
    return (
      `is a number cell of more than ${MAX_EXACT_NUMBER_DIGITS} digits: a spreadsheet keeps only ${MAX_EXACT_NUMBER_DIGITS} digits of a number, ` +
      `so the ones after the ${MAX_EXACT_NUMBER_DIGITS}th may not be those typed; nothing is read from it. Format the column as Text and type the value again`
    );
  if (!/^-?[0-9]+([.,][0-9]+)?E[+-]?[0-9]+$/i.test(cell.trim())) return undefined;
  return (
    'is a number in scientific notation (as 1,23457E+16), as a spreadsheet that took the column for numbers writes a long one: ' +
    `the digits it does not show are lost; nothing is read from it. ${KEEP_AS_TEXT} and type the value again`
  );
}

/**
 * A worksheet's number cell as its format shows it: a CPF or a CEP kept as a number has lost its leading
 * zeros, but a format of exactly the column's number of zeros (`00000000000`, `000.000.000-00`) shows them,
 * and that is the value the sheet holds for whoever reads it. Any other cell as it is.
 */
function shownCell(column: string, cell: string, formatDigits: number | undefined): string {
  const digits = fixedDigits(column);
  if (formatDigits === undefined || digits === undefined || formatDigits !== digits.length) return cell;
  return /^[0-9]+$/.test(cell) && cell.length < digits.length ? cell.padStart(digits.length, '0') : cell;
}

/** A number written with a decimal comma, as a pt-BR spreadsheet writes it: `-23,5613991`. */
const DECIMAL_COMMA = /^-?[0-9]+,[0-9]+$/;

/**
 * The rule for a cell whose decimal comma breaks the contract's pattern (a decimal point): said so, with
 * the pattern's own example. Never converted: `1,234` is a thousand and more in an English sheet.
 */
export const decimalCommaRule = (patternRule: string): string => {
  const example = / e\.g\. (\S+)$/.exec(patternRule)?.[1];
  return (
    'has a decimal comma, as a pt-BR spreadsheet writes numbers; the contract takes a decimal point' +
    `${example === undefined ? '' : `, e.g. ${example}`}, and nothing is converted for you. Keep the column as text ` +
    '(LibreOffice: column type "Text" when opening the CSV; Excel: format the column as Text) and write the point'
  );
};

/** The lines of a table (CSV or a worksheet): the header names the columns, each record after it is one update. */
async function* tableLines(
  records: AsyncIterable<CsvRecord>,
  path: string,
  format: 'csv' | 'xlsx',
): AsyncGenerator<InputLine> {
  let header: string[] | undefined;
  const types = BODY_COLUMNS();
  for await (const record of records) {
    if (!header) {
      const problem = headerProblem(record.fields.map((name) => name.trim()));
      // A header that names no Account or DocumentNumber makes every line bad: one usage error, nothing read further.
      // Column names are the file's own text: masked (a CPF), control characters escaped.
      if (problem !== undefined)
        throw new UsageError(`--input ${path}: line ${record.line}, the header: ${redactMessage(problem)}`);
      header = (matchHeader(record.fields) as { columns: string[] }).columns;
      continue;
    }
    const extra = record.fields.slice(header.length).some((cell) => cell !== '');
    // A worksheet row ends at its last cell that holds something; a CSV record has every separator.
    if (extra || (format === 'csv' && record.fields.length < header.length)) {
      yield {
        line: record.line,
        issues: [{ field: WHOLE_LINE, rule: `has ${record.fields.length} fields; the header has ${header.length}` }],
      };
      continue;
    }
    const body: Record<string, unknown> = {};
    const issues: LineIssue[] = [];
    let account: string | undefined;
    let documentNumber: string | undefined;
    header.forEach((name, index) => {
      const cell = shownCell(name, record.fields[index] ?? '', record.shownDigits?.get(index));
      // Every column but a boolean one is text in the contract: a number a spreadsheet cut is not its digits.
      const inexact =
        types.get(name) === 'boolean' ? undefined : inexactNumberRule(cell, record.inexact?.includes(index) === true);
      if (inexact !== undefined) {
        issues.push({ field: name, rule: inexact });
        return;
      }
      const lost = lostZerosRule(name, cell);
      if (lost !== undefined) {
        issues.push({ field: name, rule: lost });
        return;
      }
      if (name === ACCOUNT) account = cell;
      else if (name === DOCUMENT_NUMBER) documentNumber = cell;
      // An empty cell leaves the field out: the update sends only what changes.
      else if (cell !== '') {
        // The identifiers as typed: lineOf makes them canonical (canonicalUpdate), as for JSONL lines.
        let value: unknown = cell;
        if (types.get(name) === 'boolean') {
          value = booleanCell(cell);
          if (value === undefined) {
            issues.push({ field: name, rule: BOOLEAN_RULE });
            return;
          }
        }
        if (!setDotted(body, name, value)) issues.push({ field: name, rule: 'is inside a field that has a value' });
      }
    });
    const result = checked(record.line, account, documentNumber, body, CSV_NAMES, issues);
    // A pattern broken by a decimal comma (a pt-BR spreadsheet's -23,5613991) is said in those words.
    if (result.issues)
      result.issues = result.issues.map((issue) => {
        const index = header!.indexOf(issue.field);
        const cell = index < 0 ? '' : (record.fields[index] ?? '');
        return issue.rule.startsWith('must match the pattern') && DECIMAL_COMMA.test(cell.trim())
          ? { field: issue.field, rule: decimalCommaRule(issue.rule) }
          : issue;
      });
    yield result;
  }
}

/** A first line that names the CSV columns (Account and DocumentNumber, any separator) and is no JSON. */
const looksLikeCsvHeader = (text: string): boolean =>
  !text.trimStart().startsWith('{') &&
  REQUIRED_COLUMNS.every((column) =>
    new RegExp(`(^|[,;\\t|"])\\s*${column}\\s*($|[,;\\t|"])`, 'i').test(text.replace(/^\uFEFF/, '')),
  );

export interface ReadInputOptions {
  format?: InputFormat;
  /** The longest line (JSONL) or record (CSV, a worksheet's row), in bytes: MAX_RECORD_BYTES unless a test lowers it. */
  maxRecordBytes?: number;
  /** The CSV file's character encoding (--encoding): UTF-8 unless said. */
  encoding?: InputEncoding;
}

/** What stops a file as a whole (nothing of it sent), as one usage error naming the file. */
const fileProblem = (path: string, error: unknown): unknown => {
  if (error instanceof EncodingProblem) return new UsageError(encodingMessage(path, error));
  if (error instanceof CsvProblem)
    return new UsageError(`--input ${path}: line ${error.line} ${error.rule}; nothing was sent: fix it and run again`);
  return error;
};

/**
 * Every line of the input file, in order, streamed. A line that breaks a field's rule is a bad line,
 * never sent; a file that cannot be read whole (not in its encoding, not CSV past a line) is a
 * UsageError before its first line is given, or at the line where reading stops: the caller reads the
 * file through once before sending anything.
 */
export async function* readInput(path: string, options: ReadInputOptions = {}): AsyncGenerator<InputLine> {
  const { format = formatOf(path), maxRecordBytes = MAX_RECORD_BYTES, encoding = 'utf-8' } = options;
  if (OTHER_SHEETS.test(path))
    throw new UsageError(
      `--input ${path}: this kind of spreadsheet is not read; save it as "Excel 2007-365 (.xlsx)" or as CSV (.csv) and give that file`,
    );
  if (format === 'xlsx') {
    try {
      yield* tableLines(xlsxRecords(path, { maxRecordBytes }), path, 'xlsx');
    } catch (error) {
      throw fileProblem(path, error);
    }
    return;
  }
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  try {
    if (format === 'csv') {
      yield* tableLines(csvRecords(decodedText(stream, encoding), { maxRecordBytes }), path, 'csv');
      return;
    }
    for await (const line of boundedLines(stream, maxRecordBytes)) {
      if (line.problem === 'not-utf8')
        throw new UsageError(
          `--input ${path}: line ${line.number} is not UTF-8, and JSON Lines are UTF-8 (RFC 8259); nothing was sent: save the file as UTF-8 and run again`,
        );
      if (line.problem) {
        yield { line: line.number, issues: [{ field: WHOLE_LINE, rule: problemRule(line.problem, maxRecordBytes) }] };
        continue;
      }
      // A CSV file under another name (a .txt export) would be every line "not valid JSON": one usage
      // error on line 1 instead, before any other line is read, as for a CSV header that is wrong.
      // A byte order mark, as Windows editors save UTF-8, starts the first line: not part of the JSON.
      const text = line.number === 1 ? line.text!.replace(/^\uFEFF/, '') : line.text!;
      if (line.number === 1 && looksLikeCsvHeader(text))
        throw new UsageError(
          `--input ${path}: line 1 is a CSV header, but a name not ending in .csv is read as JSONL; give the file a .csv name`,
        );
      const parsed = jsonLine(line.number, text);
      if (parsed) yield parsed;
    }
  } catch (error) {
    throw fileProblem(path, error);
  } finally {
    stream.destroy();
  }
}
