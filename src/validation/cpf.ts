// The CPF rule JSON Schema cannot express: the last two digits are check digits of the first nine.

/** Why an 11-digit string is not a CPF, or undefined when it is one. */
export type CpfProblem = 'not-11-digits' | 'repeated-digit' | 'check-digits';

export function cpfProblem(value: string): CpfProblem | undefined {
  if (!/^[0-9]{11}$/.test(value)) return 'not-11-digits';
  // 000.000.000-00, 111.111.111-11, … pass the arithmetic but the Receita Federal never issues them.
  if (/^([0-9])\1{10}$/.test(value)) return 'repeated-digit';
  const digits = [...value].map(Number);
  const checkDigit = (length: number): number => {
    // Weights run from length+1 down to 2: 10..2 for the first digit, 11..2 for the second.
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += digits[i]! * (length + 1 - i);
    const remainder = sum % 11;
    return remainder < 2 ? 0 : 11 - remainder;
  };
  return checkDigit(9) === digits[9] && checkDigit(10) === digits[10] ? undefined : 'check-digits';
}

// How most Brazilian data writes a CPF: `529.982.247-25`. Here: its 11 digits with dots, dashes or
// spaces between them (`529982247-25` too), never letters or other signs.
const WRITTEN = /^[0-9][0-9. -]*[0-9]$/;

/** True when `value` is a CPF's 11 digits written with separators (dots, dashes, spaces) between them. */
export function isWrittenCpf(value: unknown): value is string {
  return (
    typeof value === 'string' && WRITTEN.test(value) && /[. -]/.test(value) && value.replace(/[. -]/g, '').length === 11
  );
}

/** The 11 digits of a CPF written with separators (`529.982.247-25` -> `52998224725`); any other value as it is. */
export function cpfDigits<T>(value: T): T | string {
  return isWrittenCpf(value) ? value.replace(/[. -]/g, '') : value;
}

/**
 * True for a CPF: 11 digits whose last two are the check digits of the first nine, and not one digit
 * repeated, given as 11 digits or as people write it (`529.982.247-25`).
 */
export function isValidCpf(value: string): boolean {
  return cpfProblem(cpfDigits(value)) === undefined;
}
