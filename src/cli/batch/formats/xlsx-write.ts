// PIX keys as a .xlsx workbook, written by ExcelJS's streaming WorkbookWriter (rows go to the file as
// they come; only the table of distinct strings is held). One worksheet, "keys": a header row, then a
// row a key, its nested members in dotted columns as in the CSV. Every value the contract types as a
// string is a text cell, formatted as Text (`@`): a phone key stays `+5511987654321`, a CPF keeps its
// leading zeros, and a provider's `=HYPERLINK(…)` is text, never a formula (ExcelJS writes a formula
// only when given one). A workbook is written whole, so export-keys puts it in place only when done.
import type { Writable } from 'node:stream';
import { loadExcelJs } from './exceljs.js';

type Worksheet = { addRow(values: unknown[]): { commit(): void }; columns: unknown };
type Writer = { addWorksheet(name: string, options?: unknown): Worksheet; commit(): Promise<void> };

/** The text a value becomes in its cell: strings as they are, other values as JSON, nothing as empty. */
const cellOf = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

export class KeyWorkbook {
  private constructor(
    private readonly writer: Writer,
    private readonly sheet: Worksheet,
  ) {}

  /** A workbook written to `stream`, its header row `columns`. */
  static async open(stream: Writable, columns: readonly string[], path: string): Promise<KeyWorkbook> {
    const ExcelJS = await loadExcelJs('--out', path);
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream,
      useSharedStrings: true,
      useStyles: true,
    }) as unknown as Writer;
    const sheet = writer.addWorksheet('keys', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((column) => ({
      header: column,
      key: column,
      width: Math.min(Math.max(column.length + 2, 14), 40),
      style: { numFmt: '@' },
    }));
    return new KeyWorkbook(writer, sheet);
  }

  /** One row a record, committed (written out) at once. */
  addRows(rows: readonly (readonly unknown[])[]): void {
    for (const row of rows) this.sheet.addRow(row.map(cellOf)).commit();
  }

  /** Writes the rest of the workbook and ends the stream. */
  async finish(): Promise<void> {
    await this.writer.commit();
  }
}
