// An alphanumeric CNPJ (IN RFB nº 2.229/2024) is a company's public registration and stays readable:
// the masking never takes one for a CPF, whatever run of digits it holds between its letters, in any of
// its spellings, in text, in JSON and in a URL. A CPF beside it is still masked.
import { describe, expect, it } from 'vitest';
import { redactJson, redactText, redactUrl } from '../../src/redact.js';
import { cnpjCheckDigits } from '../../src/cnpj.js';
import { isValidCnpj } from '../../src/validation/identifiers.js';

const cnpj = (first12: string) => first12 + cnpjCheckDigits(first12);
const written = (value: string) =>
  `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12)}`;

// The RFB's example, and CNPJs whose only letter leaves a run of exactly 11 digits, a CPF's length.
const CNPJS = ['12ABC34501DE35', cnpj('12A345670001'), cnpj('A23456789012'), cnpj('ZZ3456789012')];

describe('the masking and alphanumeric CNPJs', () => {
  it.each(CNPJS)('%s is a valid CNPJ', (value) => {
    expect(isValidCnpj(value)).toBe(true);
  });

  it.each(CNPJS.flatMap((value) => [value, written(value)]))('leaves %s readable in text, JSON and a URL', (value) => {
    expect(redactText(`holder ${value} registered`)).toBe(`holder ${value} registered`);
    const page = {
      data: [{ key: value, key_type: 'cnpj', beneficiary_entity: { document_type: 'cnpj', document: value } }],
    };
    expect(redactJson(page)).toEqual(page);
    expect(redactUrl(`https://api.test/x?cnpj=${encodeURIComponent(value)}`)).toContain(encodeURIComponent(value));
  });

  it('still masks a CPF after a word in capitals, or in a CNPJ-shaped run whose check digits do not match', () => {
    expect(redactText('CPF52998224725')).toBe('CPF*********25');
    const wrong = `${CNPJS[1]!.slice(0, 12)}${CNPJS[1]!.slice(12) === '99' ? '98' : '99'}`;
    expect(redactText(wrong)).not.toBe(wrong);
  });

  it('still masks a CPF written beside one', () => {
    const text = `cnpj ${CNPJS[0]} cpf 529.982.247-25`;
    expect(redactText(text)).toBe(`cnpj ${CNPJS[0]} cpf ***.***.***-25`);
  });
});
