// Spreadsheets made and read by a real spreadsheet program: LibreOffice Calc, headless (Debian's
// libreoffice-calc-nogui, installed as root when missing, else the test fails saying how to get it).
// Calc writes the input files, a CSV in Windows-1252 with ";" and a .xlsx workbook, from a table
// typed with the CPF column as text, and update-many sends them (the CSV only once --encoding says
// what it is); a workbook whose CPF column Calc took for numbers is refused for its lost zeros. Calc
// then opens what export-keys writes (the pt-BR CSV and the .xlsx) and every cell it shows is checked
// against the keys the API gives: accents, leading zeros, phone keys, CPFs, and no formula evaluated.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSoffice } from '../../../scripts/lib/libreoffice.mjs';
import { csvRecords } from '../../../src/cli/batch/formats/csv-read.js';
import { decodedText } from '../../../src/cli/batch/formats/encoding.js';
import { KeyWorkbook } from '../../../src/cli/batch/formats/xlsx-write.js';
import { csvHeader, KEY_COLUMNS, keyRows, keyValues } from '../../../src/cli/batch/key-rows.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import type { PixKey } from '../../../src/types.js';
import { capture } from '../in-process.js';
import { type CountingSandbox, countingSandbox, tempDir } from './harness.js';

const run = promisify(execFile);
let soffice: string;
let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  soffice = await ensureSoffice();
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 3, keysPerAccount: 4 });
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

/**
 * Calc converts `input` with `convertTo` (a filter and its options), reading it with `infilter` when
 * given; its own profile in the test's folder, so that no other Calc or setting of the machine counts.
 */
async function calc(input: string, convertTo: string, extension: string, infilter?: string): Promise<string> {
  const outdir = join(dir.path, `calc-${Math.random().toString(36).slice(2)}`);
  await mkdir(outdir);
  await run(
    soffice,
    [
      '--headless',
      '--norestore',
      `-env:UserInstallation=file://${join(dir.path, 'profile')}`,
      ...(infilter ? [`--infilter=${infilter}`] : []),
      '--convert-to',
      convertTo,
      '--outdir',
      outdir,
      input,
    ],
    { timeout: 120_000 },
  );
  return join(outdir, `${basename(input).replace(/\.[^.]+$/, '')}.${extension}`);
}

// Calc's CSV filter options: separator, quote, character set (76 UTF-8, 1 Windows-1252), first line,
// then the type of each column (1 standard, 2 text), the language, "quoted field as text".
const CSV_OUT_UTF8 = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,true,true';
const CSV_OUT_1252 = 'csv:Text - txt - csv (StarCalc):59,34,1,1';

const cells = async (path: string): Promise<string[][]> => {
  const rows: string[][] = [];
  for await (const record of csvRecords(decodedText(Readable.from([await readFile(path)])))) rows.push(record.fields);
  return rows;
};

const updateMany = async (args: string[]) => {
  const io = capture();
  const code = await main(
    ['update-many', ...args, '--base-url', sandbox.url, '--token', sandbox.sandbox.clients[0]!.token],
    COMMANDS,
    io,
  );
  return { code, stdout: io.stdout.join('\n'), stderr: io.stderr.join('\n') };
};

describe('input files LibreOffice Calc writes', () => {
  const NAMES = ['Alícia Conceição', 'João Araújo', 'Zé Ñandú'];
  const source = async (name: string) => {
    const rows = sandbox.sandbox.clients[0]!.accounts.map(
      (a, i) => `${a.account},${a.documentNumber},${NAMES[i]},${i % 2 === 0 ? 'TRUE' : 'FALSE'}`,
    );
    const path = dir.file(name);
    await writeFile(path, `Account,DocumentNumber,socialName,isPoliticallyExposedPerson\n${rows.join('\n')}\n`);
    return path;
  };
  // Account and DocumentNumber typed as text, as the guide says; the other columns standard.
  const TYPED = 'CSV:44,34,76,1,1/2/2/2/3/1/4/1';

  it('a CSV in Windows-1252 with ";": refused whole, then sent with --encoding windows-1252, accents intact', async () => {
    const saved = await calc(await source('clientes.csv'), CSV_OUT_1252, 'csv', TYPED);
    const bytes = await readFile(saved);
    // Calc wrote Windows-1252 (í is one byte, 0xED) and ";".
    expect(bytes.includes(0xed)).toBe(true);
    expect(bytes.toString('latin1').split(/\r?\n/)[0]!.replace(/"/g, '')).toBe(
      'Account;DocumentNumber;socialName;isPoliticallyExposedPerson',
    );
    const before = sandbox.requests.length;
    const refused = await updateMany(['--input', saved]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not UTF-8: .*--encoding windows-1252/);
    expect(sandbox.requests.length).toBe(before);
    const sent = await updateMany(['--input', saved, '--encoding', 'windows-1252']);
    expect(sent.code, sent.stderr).toBe(0);
    const data = sandbox.sandbox.snapshot().clients[0]!.accounts.map((account) => account.data);
    expect(data.map((d) => d.socialName)).toEqual(NAMES);
    expect(data.map((d) => d.isPoliticallyExposedPerson)).toEqual([true, false, true]);
  });

  it('a .xlsx workbook: sent, accents intact, its boolean cells as booleans', async () => {
    const saved = await calc(await source('clientes-x.csv'), 'xlsx:Calc MS Excel 2007 XML', 'xlsx', TYPED);
    const sent = await updateMany(['--input', saved]);
    expect(sent.code, sent.stderr).toBe(0);
    const data = sandbox.sandbox.snapshot().clients[0]!.accounts.map((account) => account.data);
    expect(data.map((d) => d.socialName)).toEqual(NAMES);
    expect(data.map((d) => d.isPoliticallyExposedPerson)).toEqual([true, false, true]);
  });

  it('a workbook whose CPF column Calc took for numbers: refused for its lost zeros, never padded', async () => {
    const path = dir.file('zeros.csv');
    await writeFile(path, 'Account,DocumentNumber,email\n1234567,01234567890,ana@exemplo.com.br\n');
    const saved = await calc(path, 'xlsx:Calc MS Excel 2007 XML', 'xlsx', 'CSV:44,34,76,1');
    const result = await updateMany(['--input', saved, '--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/line 2: DocumentNumber: has 10 digits, not 11: .*leading zeros.*Text/);
  });
});

describe('mistakes with files LibreOffice Calc writes', () => {
  it('a CPF kept as a number with a format that shows its zeros, saved again by Calc: read as the sheet shows it', async () => {
    const [a] = sandbox.sandbox.clients[0]!.accounts;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('clientes');
    sheet.addRow(['Account', 'DocumentNumber', 'socialName']);
    // The CPF with a zero put first (valid or not, the check digits decide): its number drops the zero.
    const withZero = `0${a!.documentNumber.slice(1)}`;
    const row = sheet.addRow([a!.account, Number(withZero), 'Ana']);
    row.getCell(2).numFmt = '000\\.000\\.000\\-00';
    const source = dir.file('formatted-src.xlsx');
    await workbook.xlsx.writeFile(source);
    const saved = await calc(source, 'xlsx:Calc MS Excel 2007 XML', 'xlsx');
    // As Calc shows it, the CPF with its zero.
    const shown = await cells(await calc(saved, CSV_OUT_UTF8, 'csv'));
    expect(shown[1]![1]).toBe(
      `${withZero.slice(0, 3)}.${withZero.slice(3, 6)}.${withZero.slice(6, 9)}-${withZero.slice(9)}`,
    );
    const result = await updateMany(['--input', saved, '--dry-run']);
    // Read with its zero: never the lost-zeros refusal (an invalid CPF is refused for its check digits).
    expect(result.stdout).not.toMatch(/has 10 digits/);
    expect(result.stdout).toMatch(/1 line: /);
  });

  it('a UTF-8 CSV Calc saved, given with --encoding windows-1252: refused whole, nothing sent', async () => {
    const path = dir.file('utf8-src.csv');
    const [a] = sandbox.sandbox.clients[0]!.accounts;
    await writeFile(path, `Account,DocumentNumber,socialName\n${a!.account},${a!.documentNumber},Conceição\n`);
    const saved = await calc(path, 'csv:Text - txt - csv (StarCalc):59,34,76,1', 'csv', 'CSV:44,34,76,1,1/2/2/2/3/1');
    const before = sandbox.requests.length;
    const refused = await updateMany(['--input', saved, '--encoding', 'windows-1252']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is UTF-8, not Windows-1252: line 2 .*Run again without --encoding/);
    expect(sandbox.requests.length).toBe(before);
  });

  it('an account of 17 digits Calc took for a number (it keeps 15): refused in the .xlsx and its CSV, nothing sent', async () => {
    const path = dir.file('long-account.csv');
    const [a] = sandbox.sandbox.clients[0]!.accounts;
    await writeFile(path, `Account,DocumentNumber,socialName\n12345678901234567,${a!.documentNumber},Ana\n`);
    const xlsx = await calc(path, 'xlsx:Calc MS Excel 2007 XML', 'xlsx', 'CSV:44,34,76,1');
    const csv = await calc(xlsx, 'csv:Text - txt - csv (StarCalc):59,34,76,1', 'csv');
    const before = sandbox.requests.length;
    const fromSheet = await updateMany(['--input', xlsx]);
    expect(fromSheet.stderr).toMatch(/line 2: .*Account: is a number cell of more than 15 digits/);
    const fromCsv = await updateMany(['--input', csv]);
    expect(fromCsv.stderr).toMatch(/line 2: .*Account: is a number in scientific notation/);
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('files export-keys writes, opened in LibreOffice Calc', () => {
  // Keys a provider may send: a phone key, a CPF key with a leading zero, accents, and values a
  // spreadsheet would run as formulas.
  const HOSTILE = ['=1+1', '@SUM(1;2)', '-2+3', '+cmd|x'];
  const key = (id: string, value: string, type: string, name: string, document: string): PixKey =>
    ({
      id,
      key: value,
      key_type: type,
      key_status: 'active',
      account_id: 'a1',
      beneficiary_account: {
        branch_code: '0001',
        account_code: '0012345',
        account_type: 'CC',
        created_at: '2026-01-01T00:00:00Z',
      },
      beneficiary_entity: { name, document_type: 'cpf', document },
    }) as unknown as PixKey;
  const KEYS = [
    key('k1', '+5511987654321', 'phone', 'Alícia Conceição', '01234567890'),
    key('k2', '01234567890', 'cpf', 'João Araújo', '01234567890'),
    ...HOSTILE.map((value, i) => key(`h${i}`, value, 'email', value, '52998224725')),
  ];
  // What the cell shows: the key's text; a formula-like one with the single quote of the guard before it.
  const shownInCsv = (value: string) => (HOSTILE.includes(value) ? `'${value}` : value);
  const expected = (show: (value: string) => string) =>
    KEYS.map((k) => keyValues(k).map((value) => show(value === undefined ? '' : String(value))));

  it('the pt-BR CSV: every cell as written, phone keys and leading zeros as text, no formula evaluated', async () => {
    const path = dir.file('chaves.csv');
    await writeFile(path, csvHeader('pt-BR') + keyRows(KEYS, 'csv', 'pt-BR'));
    // Opened as the guide says: separator ";", UTF-8, quoted fields as text.
    const shown = await calc(path, CSV_OUT_UTF8, 'csv', 'CSV:59,34,76,1,,0,true');
    const rows = await cells(shown);
    expect(rows[0]).toEqual([...KEY_COLUMNS]);
    expect(rows.slice(1)).toEqual(expected(shownInCsv));
  });

  it('the .xlsx workbook: every cell as written, a text cell each, no formula evaluated', async () => {
    const path = dir.file('chaves.xlsx');
    const handle = await open(path, 'wx');
    try {
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          handle.write(chunk).then(() => done(), done);
        },
      });
      const workbook = await KeyWorkbook.open(stream, KEY_COLUMNS, path);
      workbook.addRows(KEYS.map(keyValues));
      await workbook.finish();
    } finally {
      await handle.close();
    }
    const rows = await cells(await calc(path, CSV_OUT_UTF8, 'csv'));
    expect(rows[0]).toEqual([...KEY_COLUMNS]);
    expect(rows.slice(1)).toEqual(expected((value) => value));
  });

  it('export-keys --out keys.xlsx from the sandbox reads back in Calc key for key', async () => {
    const token = sandbox.sandbox.clients[0]!.token;
    const io = capture();
    const jsonl = dir.file('api.jsonl');
    expect(await main(['export-keys', '--out', jsonl, '--base-url', sandbox.url, '--token', token], COMMANDS, io)).toBe(
      0,
    );
    const api = (await readFile(jsonl, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as PixKey);
    const xlsx = dir.file('api.xlsx');
    expect(await main(['export-keys', '--out', xlsx, '--base-url', sandbox.url, '--token', token], COMMANDS, io)).toBe(
      0,
    );
    const rows = await cells(await calc(xlsx, CSV_OUT_UTF8, 'csv'));
    const byId = new Map(rows.slice(1).map((row) => [row[0], row]));
    expect(byId.size).toBe(api.length);
    for (const k of api)
      expect(byId.get(k.id)).toEqual(
        keyValues(k).map((value) => (value === undefined || value === null ? '' : String(value))),
      );
  });
});
