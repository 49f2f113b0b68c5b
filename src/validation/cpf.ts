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
