// ExcelJS, an optional peer of this package: loaded when a command reads or writes a .xlsx file, and
// only then, so that CSV and JSONL work without it. Missing, it is named with the command to install it.
import { UsageError } from '../../command.js';

type ExcelJs = typeof import('exceljs');

/** Thrown as a usage error (exit 2): the command cannot do what was asked until the package is installed. */
export const EXCELJS_MISSING = (flag: string, path: string): string =>
  `${flag} ${path}: .xlsx workbooks need ExcelJS, an optional peer of this package: install it with \`npm install exceljs@^4.4\` (or use a .csv file)`;

let loading: Promise<ExcelJs> | undefined;
const importExcelJs = (): Promise<unknown> => import('exceljs');

/** The ExcelJS module, or a UsageError naming the package to install; `importer` is for a test. */
export async function loadExcelJs(
  flag: string,
  path: string,
  importer: () => Promise<unknown> = importExcelJs,
): Promise<ExcelJs> {
  const load = () => importer().then((module) => ((module as { default?: ExcelJs }).default ?? module) as ExcelJs);
  // Loaded once a process; a test's own importer is not kept.
  const pending = importer === importExcelJs ? (loading ??= load()) : load();
  try {
    return await pending;
  } catch (cause) {
    loading = undefined;
    const code = (cause as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new UsageError(EXCELJS_MISSING(flag, path));
    throw cause;
  }
}
