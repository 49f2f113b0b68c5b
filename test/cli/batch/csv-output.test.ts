// CSV output safe to open in a spreadsheet: a provider's value a spreadsheet would run as a formula
// (leading = + - @, TAB or CR) is written quoted with a single quote before it, as OWASP's CSV
// injection guidance says, so it reads back as text; other values are as they were; JSONL is unchanged.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvRecords } from '../../../src/cli/batch/formats/csv-read.js';
import { csvField, KEY_COLUMNS, keyRows } from '../../../src/cli/batch/key-rows.js';
import type { PixKey } from '../../../src/types.js';

const HOSTILE = ['=HYPERLINK("http://x.test","y")', "+cmd|' /C calc'!A0", '-2+3', '@SUM(A1)', '\t=1', '\r=1'];

const keyNamed = (name: string): PixKey =>
  ({
    id: 'k1',
    key: name,
    key_type: 'EVP',
    key_status: 'ACTIVE',
    account_id: 'a1',
    beneficiary_account: { branch_code: '0001', account_code: '1', account_type: 'CACC', created_at: '2026-01-01' },
    beneficiary_entity: { name, document_type: 'CPF', document: '52998224725' },
  }) as unknown as PixKey;

const readBack = async (text: string) => {
  const rows = [];
  for await (const record of csvRecords(Readable.from([text]))) rows.push(record.fields);
  return rows;
};

describe('CSV output', () => {
  it.each(HOSTILE)('neutralises %j: quoted, a single quote first, read back as that text', async (value) => {
    const field = csvField(value);
    expect(field.startsWith(`"'`)).toBe(true);
    const [row] = await readBack(keyRows([keyNamed(value)], 'csv'));
    expect(row![KEY_COLUMNS.indexOf('beneficiary_entity.name')]).toBe(`'${value}`);
    expect(row![KEY_COLUMNS.indexOf('key')]).toBe(`'${value}`);
  });

  it('leaves other values as they were, formula characters after the first included', async () => {
    for (const value of ['Ana', 'a=b', ' =1', 'São Paulo, SP', '1+1', '']) {
      const [row] = await readBack(keyRows([keyNamed(value)], 'csv'));
      expect(row![KEY_COLUMNS.indexOf('beneficiary_entity.name')]).toBe(value);
    }
  });

  it('writes JSONL as the API gave it', () => {
    const key = keyNamed(HOSTILE[0]!);
    expect(keyRows([key], 'jsonl')).toBe(`${JSON.stringify(key)}\n`);
  });
});
