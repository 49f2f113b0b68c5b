// PIX keys as export-keys writes them: JSONL (one key a line, as the API gave it) or CSV (a header
// row, then one row a key, its nested members in dotted columns).
import { escapeJsonControls } from '../../redact.js';
import type { PixKey } from '../../types.js';

export type OutputFormat = 'jsonl' | 'csv';

/**
 * One key as one JSONL line for every reader: what JSON.stringify leaves raw inside strings (NEL, U+2028,
 * U+2029, the other C1 controls, DEL, bidi) is written as `\uXXXX`, the same JSON value. Raw, NEL and the
 * separators end a line for Python's splitlines() (5 keys were read as 11 records).
 */
const jsonLine = (key: unknown): string => escapeJsonControls(JSON.stringify(key));

export const outputFormatOf = (path: string): OutputFormat => (/\.csv$/i.test(path) ? 'csv' : 'jsonl');

/** The columns of the CSV: every member of a key the contract lists, nested ones dotted. */
export const KEY_COLUMNS = [
  'id',
  'key',
  'key_type',
  'key_status',
  'account_id',
  'beneficiary_account.branch_code',
  'beneficiary_account.account_code',
  'beneficiary_account.account_type',
  'beneficiary_account.created_at',
  'beneficiary_entity.name',
  'beneficiary_entity.document_type',
  'beneficiary_entity.document',
] as const;

// What a spreadsheet would take for the start of a formula (OWASP, "CSV Injection"): = + - @, TAB, CR.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field, safe to open in a spreadsheet. RFC 4180: a field with a comma, a quote or a line break
 * is quoted, its quotes doubled. A provider's value a spreadsheet would run as a formula
 * (`=HYPERLINK(…)`, `+cmd|…`) is neutralised as OWASP's CSV-injection guidance says: a single quote
 * before it, and the field quoted, so it shows as text (`'=HYPERLINK(…)`) and never runs.
 */
export const csvField = (value: unknown): string => {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const valueAt = (key: PixKey, column: string): unknown =>
  column.split('.').reduce<unknown>((node, name) => (node as Record<string, unknown> | undefined)?.[name], key);

export const csvHeader = (): string => `${KEY_COLUMNS.join(',')}\r\n`;

/** The text of one page of keys in `format`. */
export function keyRows(keys: readonly PixKey[], format: OutputFormat): string {
  if (format === 'jsonl') return keys.map((key) => `${jsonLine(key)}\n`).join('');
  return keys.map((key) => `${KEY_COLUMNS.map((column) => csvField(valueAt(key, column))).join(',')}\r\n`).join('');
}
