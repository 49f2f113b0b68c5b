// CSV in: the RFC 4180 reader (quoted fields with commas, doubled quotes and line breaks, CRLF, any
// chunking), the dotted columns that become the body, and update-many sending a CSV file.
import { writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvProblem, csvRecords } from '../../../src/cli/batch/formats/csv-read.js';
import { CSV_BOOLEAN_FIELDS, headerProblem, readInput, SHOWN_UNKNOWN_COLUMNS } from '../../../src/cli/batch/input.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { capture } from '../in-process.js';
import { csvField } from '../../../src/cli/batch/key-rows.js';
import { spec } from '../../support/spec.js';
import { type CountingSandbox, countingSandbox, runMain, tempDir } from './harness.js';

const records = async (chunks: string[]) => {
  const out = [];
  for await (const record of csvRecords(Readable.from(chunks))) out.push(record);
  return out;
};

describe('the CSV reader', () => {
  it('reads back any rows written as RFC 4180, however the text is cut into chunks', async () => {
    const units = ['a', ',', '"', '\n', '\r\n', ' ', 'é', '=', '-', '@', '\t'];
    const cell = fc.string({ unit: fc.constantFrom(...units) });
    // The separator is found from the first row (the header): the one most often outside quotes. A first
    // row with more bare TABs than commas is TAB-separated by that rule, so no cell of the first row holds
    // a TAB (no header name does); the rows after it hold any.
    const headerCell = fc.string({ unit: fc.constantFrom(...units.filter((unit) => unit !== '\t')) });
    const row = (cells: fc.Arbitrary<string>) => fc.array(cells, { minLength: 2, maxLength: 4 });
    // What a spreadsheet would run comes back with the single quote csvField puts before it.
    const shown = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(row(headerCell), fc.array(row(cell), { maxLength: 4 })).map(([first, rest]) => [first, ...rest]),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (rows, cuts) => {
          const text = rows.map((row) => row.map((cell) => csvField(cell)).join(',')).join('\r\n');
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((from, i) => text.slice(from, [...points, text.length][i]));
          // A row of empty cells only is a spreadsheet's empty row: no record.
          const kept = rows.filter((row) => row.some((cell) => cell !== ''));
          expect((await records(chunks)).map((record) => record.fields)).toEqual(kept.map((row) => row.map(shown)));
        },
      ),
    );
  });

  it('numbers each record by the line it starts on (CRLF, CR or LF inside quotes one line), and stops at a malformed one', async () => {
    const read = await records(['a,b\n"x\r\ny",1\r\n\r\n2,"q"\n"a\rb\nc",3\n,\n4,5']);
    expect(read.map((record) => record.line)).toEqual([1, 2, 5, 6, 10]);
    expect(read[1]!.fields).toEqual(['x\r\ny', '1']);
    for (const [text, line] of [
      ['a,b\n"x\ny",1\n\n2,"q"z\n', 5],
      ['a,b\nc,d"e\n', 2],
      ['a,b\n"x\r\ny",1\n"open', 4],
    ] as const) {
      const error = await records([text]).catch((e: unknown) => e);
      expect(error, text).toBeInstanceOf(CsvProblem);
      expect((error as CsvProblem).line, text).toBe(line);
      expect((error as CsvProblem).rule).toMatch(/^is not CSV: /);
    }
  });

  it('finds the separator of the header row: comma, semicolon, TAB or bar', async () => {
    for (const separator of [',', ';', '\t', '|'])
      expect((await records([['Account', 'DocumentNumber', '"a,b;c"'].join(separator)]))[0]!.fields).toEqual([
        'Account',
        'DocumentNumber',
        'a,b;c',
      ]);
    // The header row is read whole: a line break inside its quotes hides no separator after it.
    for (const [chunks, name] of [
      [['"Account\nName"\tDocumentNumber\tx,y\n1\t2\t3'], 'Account\nName'],
      [['"Acc', 'ount\r\nName"\t', 'Document', 'Number\tx,y\n1\t2\t3'], 'Account\r\nName'],
    ] as const)
      expect((await records([...chunks])).map((record) => record.fields)).toEqual([
        [name, 'DocumentNumber', 'x,y'],
        ['1', '2', '3'],
      ]);
  });

  it('turns true/false into booleans exactly for the boolean fields of the update body in the spec', () => {
    const body = spec.components.schemas!.NaturalPersonUpdate as { properties: Record<string, { type?: string }> };
    const booleans = Object.entries(body.properties).filter(([, schema]) => schema.type === 'boolean');
    expect([...CSV_BOOLEAN_FIELDS]).toEqual(booleans.map(([name]) => name));
  });
});

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 4, keysPerAccount: 0 });
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

describe('update-many --input FILE.csv', () => {
  const header =
    'Account,DocumentNumber,socialName,isPoliticallyExposedPerson,address.postalCode,address.street,address.number,address.addressComplement,address.neighborhood,address.city,address.state';

  it('sends dotted columns as the nested body, quoted commas and quotes intact; empty cells left out; a quoted line break read into its cell', async () => {
    const [a, b, c, d] = sandbox.sandbox.clients[0]!.accounts;
    const input = dir.file('input.csv');
    await writeFile(
      input,
      [
        header,
        `${a!.account},${a!.documentNumber},"Ana ""Aninha"" Lima",true,01310100,"Avenida Paulista, 1578",1578,"Bloco B, Apto 42",Bela Vista,São Paulo,SP`,
        `${b!.account},${b!.documentNumber},,false,,,,,,,`,
        // A line break inside quotes is one cell (lines 4 and 5 are one record), and a text field of the
        // contract refuses it as a control character (issue 34): named by that field, nothing of it sent.
        `${c!.account},${c!.documentNumber},Carla,,,,,"Bloco B
Apto 42",,,`,
        `${d!.account},${d!.documentNumber},Caio,yes,,,,,,,`,
      ].join('\r\n'),
    );
    const run = await runMain(['update-many', '--input', input, '--base-url', sandbox.url], {
      BAAS_TOKEN: sandbox.sandbox.clients[0]!.token,
    });
    // The invalid lines are named by the line each record starts on, the rest sent.
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^line 4: address\.addressComplement: must not hold a control character/m);
    expect(run.stderr).toMatch(/^line 6: isPoliticallyExposedPerson: /m);
    expect(run.stderr).not.toMatch(/^line [235]:/m);
    const [first, second, third, fourth] = sandbox.sandbox.snapshot().clients[0]!.accounts;
    expect(first!.data).toMatchObject({
      socialName: 'Ana "Aninha" Lima',
      isPoliticallyExposedPerson: true,
      address: {
        street: 'Avenida Paulista, 1578',
        addressComplement: 'Bloco B, Apto 42',
        city: 'São Paulo',
        state: 'SP',
      },
    });
    expect(second!.data.isPoliticallyExposedPerson).toBe(false);
    expect(second!.data.socialName).not.toBe('');
    expect(third!.data.socialName).not.toBe('Carla');
    expect(JSON.stringify(third!.data)).not.toContain('Apto 42');
    expect(fourth!.data.socialName).not.toBe('Caio');
  });

  it('reads the same lines as the reader numbers them (the header is line 1)', async () => {
    const input = dir.file('lines.csv');
    await writeFile(input, `${header}\nx,2,"a\nb",,,,,,,,\n`);
    const lines = [];
    for await (const line of readInput(input)) lines.push(line);
    expect(lines.map((line) => line.line)).toEqual([2]);
    expect(lines[0]!.issues!.map((issue) => issue.field)).toEqual(
      expect.arrayContaining(['Account', 'DocumentNumber']),
    );
  });
});

describe('a CSV header without Account or DocumentNumber', () => {
  it.each([
    ['no header row: data first', ['603837140611', '52998224725', 'a@exemplo.com.br'], /looks like data/],
    ['a misspelt column', ['Acount', 'DocumentNumber', 'email'], /"Acount" \(column A\) \(did you mean Account\?\)/],
    [
      'an unknown column',
      ['Account', 'DocumentNumber', 'Emial'],
      /"Emial" \(column C\) \(did you mean email\?\) is no column/,
    ],
    ['a column named twice', ['Account', 'DocumentNumber', 'email', 'EMAIL'], /email is named twice/],
    ['both missing', ['email'], /no Account and no DocumentNumber column/],
  ])('%s: said once, naming what the header needs', (_, header, rule) => {
    const problem = headerProblem(header);
    expect(problem).toMatch(rule);
    expect(problem).toMatch(/Account(,| and) DocumentNumber/);
  });

  it('10,000 unknown columns: the first few named, then how many more, in one short line', () => {
    const unknown = Array.from({ length: 10_000 }, (_, i) => `Col${i}`);
    const problem = headerProblem(['Account', 'DocumentNumber', ...unknown])!;
    expect(problem).toContain(`"Col${SHOWN_UNKNOWN_COLUMNS - 1}"`);
    expect(problem).not.toContain(`"Col${SHOWN_UNKNOWN_COLUMNS}"`);
    expect(problem).toContain(
      `and ${(10_000 - SHOWN_UNKNOWN_COLUMNS).toLocaleString('en-US')} more columns are no columns`,
    );
    expect(problem.length).toBeLessThan(2000);
    const one = headerProblem(['Account', 'DocumentNumber', ...unknown.slice(0, SHOWN_UNKNOWN_COLUMNS + 1)])!;
    expect(one).toContain('and 1 more column are no columns');
  });

  it('a header with both is fine, in any order, with any other columns', () => {
    expect(headerProblem(['email', 'DocumentNumber', 'Account', 'address.city'])).toBeUndefined();
    expect(headerProblem(['EMAIL', 'documentnumber', ' account ', 'Address.City'])).toBeUndefined();
  });

  it('never repeats a first row of data (it holds a CPF)', () => {
    expect(headerProblem(['603837140611', '529.982.247-25'])).not.toMatch(/529|6038/);
    expect(headerProblem(['Acount', '52998224725'])).not.toContain('52998224725');
  });

  it('update-many stops with one usage error (exit 2) on line 1, nothing read further or sent', async () => {
    const dir = await tempDir();
    try {
      const input = dir.file('semicolons.csv');
      await writeFile(input, 'Account;DocumentNumber;Emial\n603837140611;52998224725;a@exemplo.com.br\n'.repeat(3));
      for (const extra of [['--dry-run'], ['--base-url', 'http://127.0.0.1:1', '--token', 'tok_0123456789abcdef']]) {
        const io = capture();
        expect(await main(['update-many', '--input', input, ...extra], COMMANDS, io)).toBe(2);
        expect(io.stderr.at(-1)).toMatch(/--input .*semicolons\.csv: line 1, the header: "Emial" .*did you mean email/);
        expect(io.stderr.join('\n')).not.toMatch(/line [2-9]/);
        expect(io.stdout.join('\n')).not.toMatch(/line [2-9]|sent/);
      }
    } finally {
      await dir.remove();
    }
  });
});
