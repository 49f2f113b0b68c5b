// The CNPJ rule JSON Schema cannot express: the last two characters are check digits of the first twelve.
// Since July 2026 (Receita Federal, IN RFB nº 2.229/2024) the first twelve may be letters A-Z as well as
// digits; each character counts as its ASCII code minus 48 (`0`-`9` → 0-9, `A` → 17, … `Z` → 42), so a
// numeric CNPJ issued before then computes exactly as it always did.

/** Why a 14-character string is not a CNPJ, or undefined when it is one. */
export type CnpjProblem = 'not-14-characters' | 'repeated-character' | 'check-digits';

/** The contract's form: 12 upper-case letters or digits (root and establishment), then 2 check digits. */
export const CNPJ_FORM = /^[0-9A-Z]{12}[0-9]{2}$/;

const WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const ZERO = 48;

function checkDigit(value: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i += 1) sum += (value.charCodeAt(i) - ZERO) * weights[i]!;
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** The two check digits of a CNPJ's first 12 characters (digits or upper-case letters). */
export function cnpjCheckDigits(first12: string): string {
  const first = checkDigit(first12, WEIGHTS_1);
  return `${first}${checkDigit(`${first12}${first}`, WEIGHTS_2)}`;
}

export function cnpjProblem(value: string): CnpjProblem | undefined {
  if (!CNPJ_FORM.test(value)) return 'not-14-characters';
  // 00.000.000/0000-00 passes the arithmetic; the Receita Federal never issues one character 14 times.
  if (/^(.)\1{13}$/.test(value)) return 'repeated-character';
  return cnpjCheckDigits(value.slice(0, 12)) === value.slice(12) ? undefined : 'check-digits';
}
