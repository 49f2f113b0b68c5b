// The rows of a .xlsx workbook's first worksheet, streamed by ExcelJS's WorkbookReader (a row at a
// time; the workbook is never held whole), each as the text its cells show: what a CSV of the same
// sheet would hold. A number is its digits as JavaScript writes it (a CPF that a spreadsheet turned
// into a number comes out without its leading zeros, and the column rules say so), a boolean
// TRUE or FALSE, a formula its last computed result, a date its ISO 8601 day. Rows are numbered as the
// spreadsheet numbers them; an empty row is no record.
import { MAX_RECORD_BYTES, problemRule } from '../bounded-input.js';
import type { CsvRecord } from './csv-read.js';
import { CsvProblem } from './csv-read.js';
import { loadExcelJs } from './exceljs.js';

/**
 * A spreadsheet keeps 15 significant digits of a number (Excel cuts the rest to zeros, LibreOffice rounds),
 * and a double holds every integer only up to 2^53: an integer cell of 16 digits or more may not be the
 * value typed (an account of 17 digits comes back with its last ones changed), so it is never taken as text.
 */
export const MAX_EXACT_NUMBER_DIGITS = 15;

/** Whether a cell's value is a number that may have lost digits: an integer of 16 digits or more (a formula's result too). */
export function isInexactNumber(value: unknown): boolean {
  const number =
    value !== null && typeof value === 'object' && 'result' in value ? (value as { result: unknown }).result : value;
  return typeof number === 'number' && Number.isInteger(number) && Math.abs(number) >= 10 ** MAX_EXACT_NUMBER_DIGITS;
}

/**
 * How many digits a number format shows at least, when it is only zeros and the separators an identifier is
 * written with (`00000000000`, `000.000.000-00`, `00000-000`: 11, 11, 8); undefined for any other format.
 * ExcelJS gives the format without its backslashes (`000\\.000` is `000.000`), so a `.` here may be a decimal
 * point: the caller counts these digits only for a column of that fixed number of digits.
 */
export function formatDigits(format: unknown): number | undefined {
  if (typeof format !== 'string' || format.length > 64) return undefined;
  const literal = format.replace(/\\(.)/g, '$1').replace(/"[^"]*"/g, '');
  if (!/^[0 .\-/()]+$/.test(literal)) return undefined;
  const zeros = literal.replace(/[^0]/g, '').length;
  return zeros > 1 ? zeros : undefined;
}

/** The text a cell's value shows. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const cell = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (Array.isArray(cell.richText)) return cell.richText.map((run) => run.text).join('');
    // A formula: the value it showed when the file was saved; a hyperlink: its text.
    if ('result' in cell) return cellText(cell.result);
    if (cell.text !== undefined) return cellText(cell.text);
    if (typeof cell.error === 'string') return cell.error;
  }
  return '';
}

/** A worksheet's row as ExcelJS's streaming reader gives it. */
interface Row {
  number: number;
  values: unknown;
  getCell?: (column: number) => { numFmt?: unknown } | undefined;
}

export interface XlsxReadOptions {
  maxRecordBytes?: number;
}

/** The rows of the first worksheet of the workbook at `path`. */
export async function* xlsxRecords(path: string, options: XlsxReadOptions = {}): AsyncGenerator<CsvRecord> {
  const limit = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  const ExcelJS = await loadExcelJs('--input', path);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    // For the number formats only: a CPF kept as a number, shown with its zeros by its format.
    styles: 'cache',
    entries: 'ignore',
  });
  let worksheets: AsyncIterator<AsyncIterable<Row>>;
  try {
    worksheets = (reader as unknown as AsyncIterable<AsyncIterable<Row>>)[Symbol.asyncIterator]();
  } catch {
    throw new CsvProblem(1, 'is not a .xlsx workbook ExcelJS can read; save it again as "Excel 2007-365 (.xlsx)"');
  }
  let first: IteratorResult<AsyncIterable<Row>>;
  try {
    first = await worksheets.next();
  } catch {
    throw new CsvProblem(1, 'is not a .xlsx workbook ExcelJS can read; save it again as "Excel 2007-365 (.xlsx)"');
  }
  if (first.done) return;
  for await (const row of first.value) {
    // row.values is 1-based and sparse: index 0 is never a cell.
    const values = (Array.isArray(row.values) ? row.values : []) as unknown[];
    const fields: string[] = [];
    const inexact: number[] = [];
    const shownDigits = new Map<number, number>();
    let size = 0;
    for (let i = 1; i < values.length; i++) {
      if (isInexactNumber(values[i])) inexact.push(i - 1);
      else if (typeof values[i] === 'number') {
        const digits = formatDigits(row.getCell?.(i)?.numFmt);
        if (digits !== undefined) shownDigits.set(i - 1, digits);
      }
      const text = cellText(values[i]);
      size += Buffer.byteLength(text) + 1;
      if (size > limit) throw new CsvProblem(row.number, problemRule('too-long', limit));
      fields.push(text);
    }
    if (fields.every((field) => field === '')) continue;
    yield {
      line: row.number,
      fields,
      ...(inexact.length > 0 && { inexact }),
      ...(shownDigits.size > 0 && { shownDigits }),
    };
  }
  // The other worksheets are not read.
  await worksheets.return?.();
}
