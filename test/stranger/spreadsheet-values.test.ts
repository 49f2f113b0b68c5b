// A stranger's batch from a pt-BR spreadsheet: LibreOffice took the phone and coordinate columns for
// numbers (the + dropped, a decimal comma) and the address was given in part. What `update-many`
// reads of such a CSV is what the batch guide's "From a spreadsheet" says, in both languages.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { EncodingProblem, encodingMessage } from '../../src/cli/batch/formats/encoding.js';
import { headerProblem, type InputLine, readInput } from '../../src/cli/batch/input.js';
import { redactMessage } from '../../src/redact.js';
import { tempDir } from '../cli/batch/harness.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir?.remove();
});

const GUIDES = ['docs/guides/batch.md', 'docs/guias/batch.md'];
// As LibreOffice Calc (pt-BR) saves it: `;` between fields, numbers as it shows them.
const CSV = [
  'Account;DocumentNumber;phoneNumber;address.postalCode;address.city;address.latitude;address.longitude',
  '603837140611;529.982.247-25;5511987654321;01310100;São Paulo;;',
  '603837140611;529.982.247-25;+5511987654321;01310100;São Paulo;-23,5613991;-46,6558819',
].join('\r\n');

async function lines(): Promise<InputLine[]> {
  const path = dir.file('clientes.csv');
  await writeFile(path, `${CSV}\r\n`);
  const read: InputLine[] = [];
  for await (const line of readInput(path)) read.push(line);
  return read;
}

describe('a pt-BR spreadsheet saved as CSV', () => {
  it('refuses a partial address, a phone without its + and a decimal comma, as the batch guide says', async () => {
    const [first, second] = await lines();
    const rules = (line: InputLine | undefined) => new Map(line?.issues?.map((issue) => [issue.field, issue.rule]));
    const one = rules(first);
    const two = rules(second);
    // The address is replaced whole: every required member that is left empty is named.
    for (const field of ['address.street', 'address.number', 'address.neighborhood', 'address.state'])
      expect(one.get(field), field).toBe('is required');
    expect(one.get('phoneNumber')).toContain('it does not start with + and the country code (+55 for Brazil)');
    expect(two.has('phoneNumber')).toBe(false);
    // Said as what it is, a decimal comma, with the contract's example; never a bare pattern.
    for (const field of ['address.latitude', 'address.longitude'])
      expect(two.get(field)).toMatch(
        /^has a decimal comma, as a pt-BR spreadsheet writes numbers; the contract takes a decimal point, e\.g\. -[0-9]+\.[0-9]+, and nothing is converted/,
      );

    for (const guide of GUIDES) {
      const text = readFileSync(join(repoRoot, guide), 'utf8').replace(/\s+/g, ' ');
      expect(text, guide).toContain('`line 2: address.street: is required`');
      expect(text, guide).toContain('`it does not start with + and the country code (+55 for Brazil)`');
      expect(text, guide).toContain('(`-23,5613991`)');
      expect(text, guide).toContain(
        '`has a decimal comma, as a pt-BR spreadsheet writes numbers; the contract takes a decimal point, e.g. …`',
      );
    }
  });
});

describe('the troubleshooting guide on encodings', () => {
  const TROUBLESHOOTING = ['docs/guides/troubleshooting.md', 'docs/guias/troubleshooting.md'];
  it('quotes both encoding refusals as update-many prints them: not UTF-8, and UTF-8 given as Windows-1252', () => {
    const made = [
      encodingMessage('clientes.csv', new EncodingProblem(2, 'Windows-1252 (Latin-1)')),
      encodingMessage('clientes.csv', new EncodingProblem(2, 'UTF-8', 'windows-1252')),
    ];
    for (const guide of TROUBLESHOOTING) {
      const text = readFileSync(join(repoRoot, guide), 'utf8');
      // As the terminal shows it: masked, an invisible character (a soft hyphen) escaped.
      for (const message of made)
        expect(text, guide).toContain(`baas-pix-contract update-many: ${redactMessage(message)}\n`);
    }
  });
});

describe('a header named as a Brazilian spreadsheet names its columns', () => {
  it('says which column each name means: Portuguese names, spaces or underscores, an address field without address.', () => {
    const cases: [string, string][] = [
      ['Conta', 'Account'],
      ['CPF', 'DocumentNumber'],
      ['Telefone', 'phoneNumber'],
      ['CEP', 'address.postalCode'],
      ['Município', 'address.city'],
      ['UF', 'address.state'],
      ['Nome Social', 'socialName'],
      ['Document Number', 'DocumentNumber'],
      ['postal_code', 'address.postalCode'],
      ['Bairro', 'address.neighborhood'],
    ];
    for (const [name, meant] of cases) {
      const problem = headerProblem(
        ['Account', 'DocumentNumber', name].map((cell) => (cell === meant ? 'email' : cell)),
      );
      expect(problem, name).toContain(`"${name}" (column C) (did you mean ${meant}?)`);
    }
    // Never taken under that name: the file is still refused by its header.
    expect(headerProblem(['Conta', 'CPF', 'email'])).toMatch(/are no columns of the update/);
  });
});
