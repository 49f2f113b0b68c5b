/** True when `value` is 11 digits whose last two are the CPF check digits, and not one repeated digit. */
export function isValidCpf(value: string): boolean {
  if (!/^[0-9]{11}$/.test(value) || /^([0-9])\1{10}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const checkDigit = (length: number): number => {
    // Weights run from length+1 down to 2 over the first `length` digits.
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += digits[i]! * (length + 1 - i);
    const remainder = sum % 11;
    return remainder < 2 ? 0 : 11 - remainder;
  };
  return checkDigit(9) === digits[9] && checkDigit(10) === digits[10];
}
