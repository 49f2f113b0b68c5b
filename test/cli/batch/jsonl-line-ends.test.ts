// The JSONL export writes one record a line for every reader: JSON leaves NEL, U+2028 and U+2029 raw
// inside strings, and Python's splitlines() (and other readers) end a line there, so they are escaped.
import { describe, expect, it } from 'vitest';
import { keyRows } from '../../../src/cli/batch/key-rows.js';
import type { PixKey } from '../../../src/types.js';
import { exampleValue } from '../../support/fixtures.js';

const KEYS = exampleValue<{ data: PixKey[] }>('CompletePage').data;
// What Python's str.splitlines() splits on: \n \r \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
const PYTHON_LINE_ENDS = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

describe('the JSONL export and line ends', () => {
  it('escapes NEL, U+2028 and U+2029 in values and member names: 5 keys are 5 records for splitlines()', () => {
    const hostile = Array.from({ length: 5 }, (_, i) => ({
      ...KEYS[i % KEYS.length]!,
      key: `a\u2028b\u2029c\u0085d${i}`,
      ['odd\u2028name']: 'x\u0085',
    })) as PixKey[];
    const text = keyRows(hostile, 'jsonl');
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    const records = text.split(PYTHON_LINE_ENDS).filter((line) => line !== '');
    expect(records).toHaveLength(5);
    // The same JSON values: escaping changed the bytes, not what a reader parses.
    expect(records.map((line) => JSON.parse(line))).toEqual(hostile);
  });

  it('leaves every other key as JSON.stringify writes it', () => {
    expect(keyRows(KEYS, 'jsonl')).toBe(KEYS.map((key) => `${JSON.stringify(key)}\n`).join(''));
  });
});
