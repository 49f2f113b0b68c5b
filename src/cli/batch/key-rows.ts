// PIX keys as export-keys writes them: JSONL (one key a line, as the API gave it), CSV (a header
// row, then one row a key, its nested members in dotted columns; dialects in ./formats/csv-write.ts)
// or a .xlsx workbook with the same columns (./formats/xlsx-write.ts).
import { escapeJsonControls } from '../../redact.js';
import type { PixKey } from '../../types.js';
import { UsageError } from '../command.js';
import { type CsvDialect, csvField, csvRecord, DIALECTS } from './formats/csv-write.js';

export type OutputFormat = 'jsonl' | 'csv' | 'xlsx';

/**
 * One key as one JSONL line for every reader: what JSON.stringify leaves raw inside strings (NEL, U+2028,
 * U+2029, the other C1 controls, DEL, bidi) is written as `\uXXXX`, the same JSON value. Raw, NEL and the
 * separators end a line for Python's splitlines() (5 keys were read as 11 records).
 */
const jsonLine = (key: unknown): string => escapeJsonControls(JSON.stringify(key));

/** The name endings export-keys writes, each with its format. */
export const OUTPUT_EXTENSIONS: Readonly<Record<string, OutputFormat>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.csv': 'csv',
  '.xlsx': 'xlsx',
};

/** The format `path`'s ending gives, or a UsageError naming the endings export-keys writes. */
export function outputFormatOf(path: string): OutputFormat {
  const ending = /\.[^./\\]+$/.exec(path)?.[0]?.toLowerCase();
  const format = ending === undefined ? undefined : OUTPUT_EXTENSIONS[ending];
  if (format !== undefined) return format;
  throw new UsageError(
    `--out ${path}: export-keys writes ${Object.keys(OUTPUT_EXTENSIONS).join(', ')} files${ending ? `, not ${ending}` : ''}; give a name with one of those endings`,
  );
}

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

/** One CSV field of the default dialect, safe to open in a spreadsheet (the rule: ./formats/csv-write.ts). */
export { csvField };

const valueAt = (key: PixKey, column: string): unknown =>
  column.split('.').reduce<unknown>((node, name) => (node as Record<string, unknown> | undefined)?.[name], key);

/** The CSV's header row, after the dialect's preamble (a byte order mark for pt-BR). */
export const csvHeader = (dialect: CsvDialect = 'rfc4180'): string =>
  `${DIALECTS[dialect].preamble}${csvRecord(KEY_COLUMNS, dialect)}`;

/** The values of a key's row, in KEY_COLUMNS' order. */
export const keyValues = (key: PixKey): unknown[] => KEY_COLUMNS.map((column) => valueAt(key, column));

/** The text of one page of keys in `format` (JSONL, or CSV of `dialect`). */
export function keyRows(keys: readonly PixKey[], format: 'jsonl' | 'csv', dialect: CsvDialect = 'rfc4180'): string {
  if (format === 'jsonl') return keys.map((key) => `${jsonLine(key)}\n`).join('');
  return keys.map((key) => csvRecord(keyValues(key), dialect)).join('');
}
