// Spreadsheets as they are saved in Brazil, in and out, through the command line: a Windows-1252 CSV
// with `;` refused whole unless --encoding says what it is (then every line sent, accents intact),
// spreadsheet booleans, header names in any case, a CPF that lost its leading zeros refused (never
// padded), a .xlsx workbook read; export-keys' pt-BR dialect and .xlsx workbook read back cell for cell,
// and the endings it does not write refused. LibreOffice itself writes and reads these files in
// spreadsheets.matrix.test.ts.
import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRecords } from '../../../src/cli/batch/formats/csv-read.js';
import { decodedText } from '../../../src/cli/batch/formats/encoding.js';
import { loadExcelJs } from '../../../src/cli/batch/formats/exceljs.js';
import { csvField } from '../../../src/cli/batch/formats/csv-write.js';
import { KEY_COLUMNS } from '../../../src/cli/batch/key-rows.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import type { PixKey } from '../../../src/types.js';
import { capture } from '../in-process.js';
import { type CountingSandbox, countingSandbox, tempDir } from './harness.js';

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 4, keysPerAccount: 3 });
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

const token = () => sandbox.sandbox.clients[0]!.token;
const accounts = () => sandbox.sandbox.clients[0]!.accounts;
const run = async (args: string[]) => {
  const io = capture();
  const code = await main(args, COMMANDS, io);
  return { code, stdout: io.stdout.join('\n'), stderr: io.stderr };
};
const puts = () => sandbox.requests.filter((line) => line.includes('PUT')).length;

describe('update-many --input a CSV saved as Windows-1252 with ";"', () => {
  const NAMES = ['Alícia Conceição', 'João', 'Zé Pereira', 'Ana Lima'];
  const file = async () => {
    const path = dir.file('clientes.csv');
    const rows = accounts().map(
      (a, i) => `${a.account};${a.documentNumber};${NAMES[i]};${i % 2 === 0 ? 'VERDADEIRO' : 'falso'}`,
    );
    // Windows-1252: one byte a letter (Node's latin1 is those bytes for these characters).
    await writeFile(
      path,
      Buffer.from(`ACCOUNT;documentnumber;SocialName;isPoliticallyExposedPerson\r\n${rows.join('\r\n')}\r\n`, 'latin1'),
    );
    return path;
  };

  it('is refused whole without --encoding: one message naming the encoding and both fixes, nothing sent', async () => {
    const path = await file();
    const before = puts();
    const result = await run(['update-many', '--input', path, '--base-url', sandbox.url, '--token', token()]);
    expect(result.code).toBe(2);
    // The usage line, then the one message: no line of its own for each line with an accent.
    expect(result.stderr.filter((line) => /line [0-9]/.test(line))).toHaveLength(1);
    expect(result.stderr.at(-1)).toMatch(/is not UTF-8: line 2 .*Windows-1252.*--encoding windows-1252.*"CSV UTF-8"/);
    expect(puts()).toBe(before);
  });

  it('with --encoding windows-1252 sends every line, accents intact, booleans as spreadsheets write them', async () => {
    const path = await file();
    const result = await run([
      'update-many',
      '--input',
      path,
      '--encoding',
      'windows-1252',
      '--base-url',
      sandbox.url,
      '--token',
      token(),
    ]);
    expect(result.code, result.stderr.join('\n')).toBe(0);
    const data = sandbox.sandbox.snapshot().clients[0]!.accounts.map((account) => account.data);
    expect(data.map((d) => d.socialName)).toEqual(NAMES);
    expect(data.map((d) => d.isPoliticallyExposedPerson)).toEqual([true, false, true, false]);
  });

  it('--encoding takes the names people use and refuses others, naming those it takes', async () => {
    const path = await file();
    expect((await run(['update-many', '--input', path, '--encoding', 'LATIN1', '--dry-run'])).code).toBe(0);
    const wrong = await run(['update-many', '--input', path, '--encoding', 'ascii', '--dry-run']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.at(-1)).toMatch(/--encoding must be one of utf-8, windows-1252/);
  });

  // The wrong --encoding the other way round: a UTF-8 file (Excel's "CSV UTF-8", with its byte order
  // mark, or without one) or a UTF-16 file read as Windows-1252 would send `ConceiÃ§Ã£o` for `Conceição`, or
  // fail on a header of garbled names; refused whole, naming what the file is, nothing sent.
  it('--encoding windows-1252 on a file that is UTF-8 or UTF-16: refused whole, saying what it is, nothing sent', async () => {
    const rows = accounts().map((a, i) => `${a.account};${a.documentNumber};${NAMES[i]}`);
    const text = `Account;DocumentNumber;socialName\r\n${rows.join('\r\n')}\r\n`;
    const files: [string, Buffer, RegExp][] = [
      [
        'utf8.csv',
        Buffer.from(text, 'utf8'),
        /is UTF-8, not Windows-1252: line 2 holds an accented letter .*Run again without --encoding/,
      ],
      [
        'utf8-bom.csv',
        Buffer.from(`\uFEFF${text}`, 'utf8'),
        /is UTF-8, not Windows-1252: it starts with UTF-8's byte order mark/,
      ],
      [
        'utf16.csv',
        Buffer.from(`\uFEFF${text}`, 'utf16le'),
        /is UTF-16 \(a byte order mark FF FE or FE FF\), not Windows-1252/,
      ],
    ];
    const before = puts();
    for (const [name, bytes, message] of files) {
      const path = dir.file(name);
      await writeFile(path, bytes);
      const args = ['update-many', '--input', path, '--encoding', 'windows-1252', '--base-url', sandbox.url];
      const result = await run([...args, '--token', token()]);
      expect(result.code, name).toBe(2);
      expect(result.stderr.at(-1), name).toMatch(message);
      expect(result.stderr.join('\n'), name).not.toMatch(/AlÃ|ConceiÃ/);
      expect(
        result.stderr.filter((line) => /^line [0-9]+: /.test(line)),
        name,
      ).toEqual([]);
    }
    expect(puts()).toBe(before);
    // Without --encoding the UTF-8 files are read, accents intact.
    const sent = await run([
      'update-many',
      '--input',
      dir.file('utf8-bom.csv'),
      '--base-url',
      sandbox.url,
      '--token',
      token(),
    ]);
    expect(sent.code, sent.stderr.join('\n')).toBe(0);
    expect(sandbox.sandbox.snapshot().clients[0]!.accounts.map((account) => account.data.socialName)).toEqual(NAMES);
  });
});

describe('spreadsheet values', () => {
  it('refuses a CPF that lost its leading zeros, saying so and how to keep the column as text, never padded', async () => {
    const path = dir.file('zeros.csv');
    await writeFile(
      path,
      'Account,DocumentNumber,email\r\n1234567,2345678901,a@exemplo.com.br\r\n1234567,529.982.247-25,TRUE\r\n',
    );
    const result = await run(['update-many', '--input', path, '--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /line 2: DocumentNumber: has 10 digits, not 11: a spreadsheet .* drops leading zeros .*nothing is padded.*Text/,
    );
    expect(result.stdout).not.toContain('2345678901');
    // A formatted CPF is taken; the e-mail TRUE is refused as an e-mail, not turned into a boolean.
    expect(result.stdout).not.toMatch(/line 3: DocumentNumber/);
    expect(result.stdout).toMatch(/line 3: email: /);
  });

  it('refuses a boolean cell that is none, naming the forms it takes', async () => {
    const path = dir.file('bool.csv');
    await writeFile(path, 'Account,DocumentNumber,isPoliticallyExposedPerson\r\n1234567,52998224725,sim\r\n');
    const result = await run(['update-many', '--input', path, '--dry-run']);
    expect(result.stdout).toMatch(/line 2: isPoliticallyExposedPerson: must be TRUE or FALSE \(VERDADEIRO or FALSO/);
  });

  it('reads a .xlsx workbook: text cells as they are, a number cell as its digits, a boolean cell', async () => {
    const [a, b] = accounts();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('clientes');
    sheet.addRow(['Account', 'DocumentNumber', 'socialName', 'isPoliticallyExposedPerson', 'address.postalCode']);
    sheet.addRow([a!.account, a!.documentNumber, 'Márcia', true, null]);
    sheet.addRow([]);
    sheet.addRow([b!.account, Number('0' + b!.documentNumber.slice(1)), 'Bia', false]);
    const path = dir.file('clientes.xlsx');
    await workbook.xlsx.writeFile(path);
    const result = await run(['update-many', '--input', path, '--dry-run']);
    const leadingZero = b!.documentNumber.startsWith('0');
    expect(result.stdout).not.toMatch(/line 2:/);
    // Row 4's CPF is a number: its leading zero (put there) is gone, and that is said.
    expect(result.stdout).toMatch(leadingZero ? /line 4: DocumentNumber: has 10 digits/ : /line 4: DocumentNumber: /);
    expect(result.stdout).toMatch(/3 lines: 1 valid, 1 invalid|2 lines: 1 valid, 1 invalid/);
  });

  // A spreadsheet keeps 15 digits of a number: an account of 17 digits typed into a number cell comes
  // back with its last digits changed (LibreOffice saved 12345678901234567 as 12345678901234600), and a
  // CSV of it shows the number in scientific notation. Either is another account: refused, nothing sent.
  it('refuses a number a spreadsheet kept only 15 digits of: a long number cell, a CSV cell in scientific notation', async () => {
    const [a] = accounts();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('clientes');
    sheet.addRow(['Account', 'DocumentNumber', 'socialName']);
    sheet.addRow([12345678901234600, a!.documentNumber, 'Ana']);
    sheet.addRow([{ formula: 'A2+1', result: 12345678901234600 }, a!.documentNumber, 'Bia']);
    // 15 digits are kept exactly: such a number cell is its digits.
    sheet.addRow([123456789012345, a!.documentNumber, 'Cris']);
    const xlsx = dir.file('long.xlsx');
    await workbook.xlsx.writeFile(xlsx);
    const csv = dir.file('long.csv');
    await writeFile(
      csv,
      `Account;DocumentNumber;socialName\r\n1,23457E+16;${a!.documentNumber};Ana\r\n1.23456789012346E+016;${a!.documentNumber};Bia\r\n`,
    );
    const before = puts();
    const sheetRun = await run(['update-many', '--input', xlsx, '--base-url', sandbox.url, '--token', token()]);
    expect(sheetRun.stdout).toMatch(/invalid +2/);
    for (const line of [2, 3])
      expect(sheetRun.stderr.join('\n')).toMatch(
        new RegExp(`line ${line}: Account: is a number cell of more than 15 digits: .*Format the column as Text`),
      );
    expect(sheetRun.stderr.join('\n')).not.toMatch(/line 4: Account/);
    const csvRun = await run(['update-many', '--input', csv, '--base-url', sandbox.url, '--token', token()]);
    expect(csvRun.code).toBe(1);
    for (const line of [2, 3])
      expect(csvRun.stderr.join('\n')).toMatch(
        new RegExp(`line ${line}: Account: is a number in scientific notation .*Keep the column as text`),
      );
    // Only row 4's account (15 digits, no customer of the sandbox's) was sent.
    expect(puts() - before).toBe(1);
  });

  // Excel users keep CPFs as numbers with a format that shows their zeros (000.000.000-00): the sheet
  // shows 012.345.678-90, and that is read; a format of other zeros (0.00) or none shows no zeros.
  it('reads a CPF or CEP number cell as its format shows it, zeros included; with another format, its lost zeros', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('clientes');
    const address = ['Rua', '1', 'Centro', 'São Paulo', 'SP'];
    sheet.addRow([
      'Account',
      'DocumentNumber',
      'address.postalCode',
      'address.street',
      'address.number',
      'address.neighborhood',
      'address.city',
      'address.state',
    ]);
    const row = (cpfFormat: string | undefined, cepFormat: string | undefined) => {
      const added = sheet.addRow(['1234567', 1234567890, 1310100, ...address]);
      if (cpfFormat) added.getCell(2).numFmt = cpfFormat;
      if (cepFormat) added.getCell(3).numFmt = cepFormat;
    };
    row('000\\.000\\.000\\-00', '00000\\-000');
    row('00000000000', '00000000');
    row('0.00', '0');
    row(undefined, undefined);
    const path = dir.file('formatted.xlsx');
    await workbook.xlsx.writeFile(path);
    const result = await run(['update-many', '--input', path, '--dry-run']);
    expect(result.stdout).not.toMatch(/line [23]:/);
    for (const line of [4, 5]) {
      expect(result.stdout).toMatch(new RegExp(`line ${line}: DocumentNumber: has 10 digits, not 11`));
      expect(result.stdout).toMatch(new RegExp(`line ${line}: address.postalCode: has 7 digits, not 8`));
    }
    expect(result.stdout).toMatch(/4 lines: 2 valid, 2 invalid/);
  });

  it('says which package to install when ExcelJS is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'exceljs'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadExcelJs('--input', 'x.xlsx', () => Promise.reject(missing))).rejects.toThrow(
      /--input x\.xlsx: .xlsx workbooks need ExcelJS.*npm install exceljs@\^4\.4/,
    );
  });
});

/** The keys as the API gives them (the sandbox's snapshot masks CPFs): a JSONL export, read once. */
let apiKeys: PixKey[] | undefined;
const keysOf = async (): Promise<PixKey[]> => {
  if (apiKeys) return apiKeys;
  const out = dir.file('keys.jsonl');
  expect((await run(['export-keys', '--out', out, '--base-url', sandbox.url, '--token', token()])).code).toBe(0);
  apiKeys = (await readFile(out, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as PixKey);
  return apiKeys;
};
const valueAt = (key: PixKey, column: string): string => {
  const value = column.split('.').reduce<unknown>((node, name) => (node as Record<string, unknown>)?.[name], key);
  return value === undefined || value === null ? '' : String(value);
};
const byId = (rows: string[][]) => new Map(rows.map((row) => [row[0]!, row]));

describe('export-keys for spreadsheets', () => {
  it('--csv-dialect pt-BR writes UTF-8 with a byte order mark, ";" and every field quoted; it reads back key for key', async () => {
    const out = dir.file('chaves.csv');
    const result = await run([
      'export-keys',
      '--out',
      out,
      '--csv-dialect',
      'pt-BR',
      '--base-url',
      sandbox.url,
      '--token',
      token(),
    ]);
    expect(result.code, result.stderr.join('\n')).toBe(0);
    const bytes = await readFile(out);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')[0]).toBe(`\uFEFF${KEY_COLUMNS.map((c) => `"${c}"`).join(';')}`);
    const rows: string[][] = [];
    for await (const record of csvRecords(decodedText(Readable.from([bytes])))) rows.push(record.fields);
    expect(rows[0]).toEqual([...KEY_COLUMNS]);
    const read = byId(rows.slice(1));
    const keys = await keysOf();
    expect(read.size).toBe(keys.length);
    for (const key of keys)
      expect(read.get(key.id)).toEqual(
        KEY_COLUMNS.map((column) => csvField(valueAt(key, column), 'pt-BR').slice(1, -1).replace(/""/g, '"')),
      );
  });

  it('keeps a phone key readable: a plain number gets no quote mark, a formula does', () => {
    expect(csvField('+5511987654321')).toBe('"+5511987654321"');
    expect(csvField('+5511987654321', 'pt-BR')).toBe('"+5511987654321"');
    expect(csvField('-46.65')).toBe('"-46.65"');
    for (const formula of ['=1+1', '+55 11', '-2+3', '@SUM(A1)', '+cmd|x', '\t1'])
      expect(csvField(formula, 'pt-BR')).toBe(`"'${formula.replace(/"/g, '""')}"`);
  });

  it('--out keys.xlsx writes a workbook whose cells are the keys, each a text cell', async () => {
    const out = dir.file('chaves.xlsx');
    const result = await run(['export-keys', '--out', out, '--base-url', sandbox.url, '--token', token()]);
    expect(result.code, result.stderr.join('\n')).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(out);
    const sheet = workbook.worksheets[0]!;
    const rows: string[][] = [];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      for (let i = 1; i <= KEY_COLUMNS.length; i++) {
        const cell = row.getCell(i);
        // Every cell that holds something is text (ExcelJS: ValueType.String is 3), never a number or formula.
        if (cell.value !== null) expect(cell.type, `${row.number}:${i}`).toBe(ExcelJS.ValueType.String);
        cells.push(cell.value === null ? '' : String(cell.value));
      }
      rows.push(cells);
    });
    expect(rows[0]).toEqual([...KEY_COLUMNS]);
    const read = byId(rows.slice(1));
    const keys = await keysOf();
    expect(read.size).toBe(keys.length);
    for (const key of keys) expect(read.get(key.id)).toEqual(KEY_COLUMNS.map((column) => valueAt(key, column)));
  });

  it.each([
    [['--out', 'keys.txt'], /--out keys\.txt: export-keys writes \.jsonl, \.ndjson, \.csv, \.xlsx files, not \.txt/],
    [['--out', 'keys'], /--out keys: export-keys writes \.jsonl, \.ndjson, \.csv, \.xlsx files;/],
    [['--out', 'keys.xlsx', '--journal', 'j'], /--journal: a \.xlsx workbook is written whole/],
    [['--out', 'keys.jsonl', '--csv-dialect', 'pt-BR'], /--csv-dialect is for a \.csv --out file/],
    [['--out', 'keys.csv', '--csv-dialect', 'excel'], /--csv-dialect must be one of rfc4180, pt-BR/],
  ])('refuses %j before anything is written or sent', async (args, message) => {
    const before = sandbox.requests.length;
    const result = await run(['export-keys', ...args, '--base-url', sandbox.url, '--token', token()]);
    expect(result.code).toBe(2);
    expect(result.stderr.at(-1)).toMatch(message);
    expect(sandbox.requests.length).toBe(before);
  });
});
