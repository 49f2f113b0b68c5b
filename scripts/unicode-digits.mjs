#!/usr/bin/env node
// `node scripts/unicode-digits.mjs`: writes src/unicode-digits.ts, the characters of \p{N} outside \p{Nd}
// whose Unicode Numeric_Value is one decimal digit (①, ⑴, ⒈, 🄂, ❶, ⓵, superscripts, Roman numerals,
// Ethiopic and counting-rod digits, …), as runs of consecutive code points. JavaScript has no property
// for a numeric value, so the masking of src/redact.ts reads this table; \p{Nd} it reads from the
// runtime's own Unicode data. The values come from unicode-properties (a development dependency);
// test/redaction/unicode-digits.test.ts fails when the committed table is not what this writes.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The table's source text. */
export function unicodeDigitsSource() {
  const unicode = require('unicode-properties');
  const runs = [];
  for (let code = 0; code < 0x110000; code += 1) {
    const value = unicode.getNumericValue(code);
    const category = unicode.getCategory(code);
    if (!Number.isInteger(value) || value < 0 || value > 9) continue;
    if (!category.startsWith('N') || /\p{Nd}/u.test(String.fromCodePoint(code))) continue;
    const last = runs.at(-1);
    if (last && last[1] === code - 1 && last[2] + (code - last[0]) === value) last[1] = code;
    else runs.push([code, code, value]);
  }
  const rows = runs.map(([first, last, value]) => `  [0x${first.toString(16)}, 0x${last.toString(16)}, ${value}],`);
  return [
    '// Written by scripts/unicode-digits.mjs; do not edit. The characters of \\p{N} outside \\p{Nd} whose',
    '// Unicode Numeric_Value is one decimal digit, as runs [first code point, last code point, value of',
    '// the first] where each next code point is worth one more.',
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
