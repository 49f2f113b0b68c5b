// isValidCpf: the two check digits (weights 10..2, then 11..2, mod 11) and the repeated-digit rule,
// for 11 digits and for a CPF as people write it (`529.982.247-25`).
import { describe, expect, it } from 'vitest';
import { isValidCpf } from '../../src/index.js';

describe('isValidCpf', () => {
  // 05231794309 has a remainder below 2 for a check digit, so it must be 0.
  it.each(['52998224725', '12345678909', '39053344705', '05231794309', '11144477735'])('accepts %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    ['a wrong second check digit', '52998224724'],
    ['a wrong first check digit', '52998224735'],
    ['swapped base digits', '25998224725'],
    ['one repeated digit, whose check digits add up', '00000000000'],
    ['one repeated digit', '11111111111'],
    ['10 digits', '5299822472'],
    ['12 digits', '529982247250'],
    ['a written CPF with a wrong check digit', '529.982.247-24'],
    ['a written CPF one digit short', '529.982.247-2'],
    ['a written CPF with letters', '529.982.247-2x'],
    ['another sign than a separator (a symbol, Unicode S)', '529+982+247+25'],
    ['a control character between the digits', '529\t982\t247\t25'],
    ['letters', 'abcdefghijk'],
    ['nothing', ''],
  ])('rejects %s', (_case, cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  // Any punctuation or space is a separator (src/validation/identifiers.ts), wherever it stands.
  it.each(['529.982.247-25', '529982247-25', '529 982 247 25', '123.456.789-09', '529/982/247/25', '.52998224725'])(
    'accepts the written CPF %s',
    (cpf) => {
      expect(isValidCpf(cpf)).toBe(true);
    },
  );
});
