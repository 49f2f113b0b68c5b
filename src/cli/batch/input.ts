// The input of update-many, line by line, streamed (never read whole): JSONL, one
// {"account","documentNumber","body"} per line, or CSV with the columns Account, DocumentNumber and
// the body's fields in dotted form (address.city). Each line comes out as an update to send or as
// the issues that keep it from being sent (field and rule, never the value).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { UpdateItem } from '../../batch/results.js';
import {
  type ValidationIssue,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
} from '../../validation/index.js';
import { cpfDigits } from '../../validation/cpf.js';
import { boundedLines, MAX_RECORD_BYTES, problemRule } from './bounded-input.js';
import { csvRecords } from './csv.js';
import { UsageError } from '../command.js';
import { editDistance } from '../../words.js';

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

export type InputFormat = 'jsonl' | 'csv';

export const formatOf = (path: string): InputFormat => (/\.csv$/i.test(path) ? 'csv' : 'jsonl');

/** Body fields that are booleans: a CSV cell `true` or `false` becomes one (checked against the spec by the tests). */
export const CSV_BOOLEAN_FIELDS: ReadonlySet<string> = new Set(['isPoliticallyExposedPerson']);

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
  return validateNaturalPersonUpdate(body).map((issue) => ({ field: name(issue.path), rule: ruleOf(issue) }));
}

/** The rule alone: a ValidationIssue's message starts with the field it names. */
function ruleOf(issue: ValidationIssue): string {
  const prefix = issue.path === '' ? /^the (body|query) / : new RegExp(`^${escapeRegExp(issue.path)} `);
  return issue.message.replace(prefix, '');
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

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
  // A CPF as people write it (`529.982.247-25`) is accepted: updateMany sends its 11 digits.
  for (const issue of validateUpdateNaturalPersonQuery({
    Account: account,
    DocumentNumber: cpfDigits(documentNumber),
  })) {
    const field =
      issue.path === 'Account' ? names.account : issue.path === 'DocumentNumber' ? names.documentNumber : '';
    issues.push({ field, rule: issue.path === '' ? issue.message : ruleOf(issue) });
  }
  issues.push(...bodyIssues(body, names.body));
  if (issues.length > 0) return { line, issues };
  const item = { account, documentNumber, body } as UpdateItem;
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
  const unknown: LineIssue[] = Object.keys(record).some((name) => !(JSONL_FIELDS as readonly string[]).includes(name))
    ? [{ field: WHOLE_LINE, rule: `has a field it does not know (${JSONL_FIELDS.join(', ')} only)` }]
    : [];
  if (!('body' in record)) unknown.push({ field: 'body', rule: 'is required' });
  const body = 'body' in record ? record.body : {};
  return checked(line, record.account, record.documentNumber, body, JSONL_NAMES, unknown);
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

const REQUIRED_COLUMNS = ['Account', 'DocumentNumber'] as const;
// A column name safe to repeat in a message: a name, not a value (a file without its header row starts with data).
const PRINTABLE_NAME = /^[A-Za-z][A-Za-z0-9_.]{0,63}$/;

/**
 * What is wrong with a CSV header that lacks Account or DocumentNumber, said once for the file rather
 * than once a line: the usual causes are a spreadsheet that saved with semicolons, a missing header row
 * and a misspelt column.
 */
export function headerProblem(header: readonly string[]): string | undefined {
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length === 0) return undefined;
  const needs =
    'the header needs the columns Account and DocumentNumber, then the fields to update (email, address.city, …)';
  const separator = header.length === 1 ? /[;\t|]/.exec(header[0]!)?.[0] : undefined;
  if (separator !== undefined)
    return `its columns are separated by "${separator === '\t' ? 'TAB' : separator}", not commas: save the file as CSV with commas (in a spreadsheet, "CSV UTF-8 (comma delimited)"); ${needs}`;
  if (header.some((name) => /^[0-9.\-/ ]+$/.test(name) && /[0-9]/.test(name)))
    return `it looks like data, not a header row: add a first line naming the columns; ${needs}`;
  const named = missing.map((column) => {
    const close = header.find(
      (name) => PRINTABLE_NAME.test(name) && editDistance(name.toLowerCase(), column.toLowerCase()) <= 2,
    );
    return close === undefined ? column : `${column} ("${close}" misspelt?)`;
  });
  return `no ${named.join(' and no ')} column; ${needs}`;
}

/** The lines of a CSV file: the header names the columns, each record after it is one update. */
async function* csvLines(
  chunks: AsyncIterable<Uint8Array>,
  maxRecordBytes: number,
  path: string,
): AsyncGenerator<InputLine> {
  let header: string[] | undefined;
  for await (const record of csvRecords(chunks, { maxRecordBytes })) {
    if (record.problem)
      yield { line: record.line, issues: [{ field: WHOLE_LINE, rule: problemRule(record.problem, maxRecordBytes) }] };
    if (!header) {
      // A spreadsheet's byte order mark is no part of the first column's name.
      header = record.fields.map((name, index) => (index === 0 ? name.replace(/^\uFEFF/, '') : name).trim());
      // A header that names no Account or DocumentNumber makes every line bad: one usage error, nothing read further.
      const problem = record.problem ? undefined : headerProblem(header);
      if (problem !== undefined) throw new UsageError(`--input ${path}: line 1, the header: ${problem}`);
      continue;
    }
    if (record.problem) continue;
    if (record.malformed) {
      yield { line: record.line, issues: [{ field: WHOLE_LINE, rule: `is not CSV: ${record.malformed}` }] };
      continue;
    }
    if (record.fields.length !== header.length) {
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
      const cell = record.fields[index]!;
      if (name === 'Account') account = cell;
      else if (name === 'DocumentNumber') documentNumber = cell;
      // An empty cell leaves the field out: the update sends only what changes.
      else if (cell !== '') {
        const value = CSV_BOOLEAN_FIELDS.has(name) && (cell === 'true' || cell === 'false') ? cell === 'true' : cell;
        if (!setDotted(body, name, value)) issues.push({ field: name, rule: 'is inside a field that has a value' });
      }
    });
    yield checked(record.line, account, documentNumber, body, CSV_NAMES, issues);
  }
}

/** A first line that names the CSV columns (Account and DocumentNumber, any separator) and is no JSON. */
const looksLikeCsvHeader = (text: string): boolean =>
  !text.trimStart().startsWith('{') &&
  REQUIRED_COLUMNS.every((column) =>
    new RegExp(`(^|[,;\\t|"])\\s*${column}\\s*($|[,;\\t|"])`).test(text.replace(/^\uFEFF/, '')),
  );

export interface ReadInputOptions {
  format?: InputFormat;
  /** The longest line (JSONL) or record (CSV), in bytes: MAX_RECORD_BYTES unless a test lowers it. */
  maxRecordBytes?: number;
}

/** Every line of the input file, in order, streamed; a line too long or not UTF-8 is a bad line, never sent. */
export async function* readInput(path: string, options: ReadInputOptions = {}): AsyncGenerator<InputLine> {
  const { format = formatOf(path), maxRecordBytes = MAX_RECORD_BYTES } = options;
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  try {
    if (format === 'csv') {
      yield* csvLines(stream, maxRecordBytes, path);
      return;
    }
    for await (const line of boundedLines(stream, maxRecordBytes)) {
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
  } finally {
    stream.destroy();
  }
}
