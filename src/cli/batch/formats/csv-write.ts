// CSV as export-keys writes it, in one of two dialects chosen by --csv-dialect:
// - `rfc4180` (the default): RFC 4180 as programs read it: UTF-8 without a byte order mark, `,`
//   between fields, CRLF after each record, a field quoted only when it holds `,`, a quote or a line break.
// - `pt-BR`: what Excel and LibreOffice in Portuguese open in columns with accents intact: UTF-8 with
//   a byte order mark (without one Excel reads Windows-1252: `AlÃ­cia`), `;` between fields (pt-BR uses
//   `,` for decimals), CRLF, and every field quoted, so that LibreOffice's "Format quoted field as
//   text" keeps every cell as text (a phone key, a CPF's leading zeros).
//
// The formula guard (OWASP, "CSV Injection"), one rule for both: a cell that starts with what a
// spreadsheet takes for the start of a formula (= + - @, TAB, CR) gets a single quote before it and is
// quoted, so it shows as text and never runs, unless the whole cell is a plain number: a sign, digits,
// perhaps a decimal part (`+5511987654321`, `-12.5`). A plain number carries no code for a spreadsheet
// to run, and a phone key stays `+5511987654321` instead of `'+5511987654321`; where a spreadsheet
// reads a number's cell as a number (Excel, LibreOffice without "quoted field as text"), the .xlsx
// output keeps it as text.

export const CSV_DIALECTS = ['rfc4180', 'pt-BR'] as const;
export type CsvDialect = (typeof CSV_DIALECTS)[number];

interface DialectRules {
  separator: string;
  /** Written once, before the header. */
  preamble: string;
  quoteAll: boolean;
}

export const DIALECTS: Record<CsvDialect, DialectRules> = {
  rfc4180: { separator: ',', preamble: '', quoteAll: false },
  'pt-BR': { separator: ';', preamble: '\uFEFF', quoteAll: true },
};

/** The dialect `name` names (any case), or undefined. */
export const dialectNamed = (name: string): CsvDialect | undefined =>
  CSV_DIALECTS.find((dialect) => dialect.toLowerCase() === name.trim().toLowerCase());

// What a spreadsheet would take for the start of a formula (OWASP): = + - @, TAB, CR.
const FORMULA_START = /^[=+\-@\t\r]/;
// A plain number: what a spreadsheet reads as a number at most, never as code.
const PLAIN_NUMBER = /^[+-]?[0-9]+([.,][0-9]+)?$/;

/** The text of a value as a cell holds it: a string as it is, other values as JSON, nothing as empty. */
const textOf = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

const quoted = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** One CSV field of `dialect`, safe to open in a spreadsheet. */
export function csvField(value: unknown, dialect: CsvDialect = 'rfc4180'): string {
  const text = textOf(value);
  const rules = DIALECTS[dialect];
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return quoted(`'${text}`);
  if (rules.quoteAll) return quoted(text);
  return new RegExp(`[${rules.separator}"\\r\\n]`).test(text) || FORMULA_START.test(text) ? quoted(text) : text;
}

/** One record of `dialect`, its line break included. */
export const csvRecord = (values: readonly unknown[], dialect: CsvDialect = 'rfc4180'): string =>
  `${values.map((value) => csvField(value, dialect)).join(DIALECTS[dialect].separator)}\r\n`;
