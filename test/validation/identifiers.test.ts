// The one rule for the identifiers people type (src/validation/identifiers.ts): CPF, CNPJ (numeric and,
// since July 2026, alphanumeric), CEP and phone number, taken as Brazilians write them and given back
// in the contract's form; a value that cannot be gets the field, the rule in words and an example,
// never a regular expression and never the value.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { canonicalIdentifier, isValidCnpj, isValidCpf, type IdentifierKind } from '../../src/index.js';
import { IDENTIFIER_FORMS } from '../../src/validation/identifiers.js';
import { validatorFor } from '../support/ajv.js';

// The contract's schema of each kind's canonical form.
const CONTRACT: Record<IdentifierKind, string> = {
  cpf: '/components/parameters/DocumentNumber/schema',
  cnpj: '/components/schemas/BeneficiaryEntity/oneOf/1/properties/document',
  cep: '/components/schemas/Address/properties/postalCode',
  phone: '/components/schemas/PhoneNumber',
};

describe('canonicalIdentifier', () => {
  it.each<[IdentifierKind, string, string]>([
    ['cpf', '529.982.247-25', '52998224725'],
    ['cpf', '52998224725', '52998224725'],
    ['cpf', '529 982 247 25', '52998224725'],
    ['cnpj', '12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['cnpj', '12ABC34501DE35', '12ABC34501DE35'],
    ['cnpj', '12.abc.345/01de-35', '12ABC34501DE35'],
    ['cnpj', '11.222.333/0001-81', '11222333000181'],
    ['cep', '01310-100', '01310100'],
    ['cep', '01310100', '01310100'],
    ['phone', '+55 (11) 98765-4321', '+5511987654321'],
    ['phone', '+5511987654321', '+5511987654321'],
    ['phone', '+55 11 98765 4321', '+5511987654321'],
    ['phone', '+1 (415) 555-0100', '+14155550100'],
  ])('%s %s is %s', (kind, written, canonical) => {
    expect(canonicalIdentifier(kind, written)).toEqual({ value: canonical });
  });

  it.each(Object.entries(IDENTIFIER_FORMS) as [IdentifierKind, (typeof IDENTIFIER_FORMS)[IdentifierKind]][])(
    "%s: the example people read is made canonical, and the canonical form passes the contract's schema",
    (kind, form) => {
      expect(canonicalIdentifier(kind, form.written)).toEqual({ value: form.canonical });
      const validate = validatorFor(CONTRACT[kind]);
      expect(validate(form.canonical), JSON.stringify(validate.errors)).toBe(true);
      expect(validate(form.written)).toBe(false);
    },
  );

  // Separators are a class (Unicode P, Zs, Cf), not a list: a no-break space, an en dash, a fullwidth
  // full stop, a zero-width space, an apostrophe (a spreadsheet's text prefix).
  it.each([
    ['cpf', '529\u00a0982\u00a0247\u201325', '52998224725'],
    ['cpf', '529\uff0e982\uff0e247-25', '52998224725'],
    ['cpf', "'52998224725", '52998224725'],
    ['cep', '01310\u200b-100', '01310100'],
    ['phone', '+55\u202f(11)\u202f98765\u20104321', '+5511987654321'],
  ] as const)('%s %j is %s', (kind, written, canonical) => {
    expect(canonicalIdentifier(kind, written)).toEqual({ value: canonical });
  });

  test.prop([
    fc.array(
      fc.constantFrom(
        ...[...Array(0x3000).keys()].map((c) => String.fromCharCode(c)).filter((c) => /[\p{P}\p{Zs}\p{Cf}]/u.test(c)),
      ),
      { minLength: 12, maxLength: 12 },
    ),
  ])('a CPF with any separators between or around its digits is its 11 digits', (separators) => {
    const digits = '52998224725';
    const written = [...digits].map((digit, i) => separators[i] + digit).join('') + separators[11];
    expect(canonicalIdentifier('cpf', written)).toEqual({ value: digits });
  });

  it.each<[IdentifierKind, string, string]>([
    ['cpf', '1234567890', 'length'],
    ['cpf', '529.982.247-2x', 'characters'],
    // Another script's digits are not the contract's 0-9.
    ['cpf', '٥٢٩٩٨٢٢٤٧٢٥', 'characters'],
    ['cpf', '529.982.247-24', 'check-digits'],
    ['cpf', '111.111.111-11', 'repeated-digit'],
    ['cnpj', '12.ABC.345/01DE-36', 'check-digits'],
    ['cnpj', '12.ABC.345/01DE-3A', 'check-digits-not-digits'],
    ['cnpj', '12.ÀBC.345/01DE-35', 'characters'],
    ['cnpj', '00.000.000/0000-00', 'repeated-digit'],
    ['cnpj', '98.XYZ.765/43WV-2', 'length'],
    ['cep', '2040-002', 'length'],
    ['cep', '20040-OO2', 'characters'],
    ['phone', '(21) 2345-6789', 'country-code'],
    ['phone', '+0 11 98765-4321', 'country-code'],
    ['phone', '+55 (11) 98765-4321 ramal 2', 'characters'],
    ['phone', '+55 11 98765 4321 1234 5', 'length'],
    ['phone', '+55 11 9876\u22124321', 'characters'],
  ])('%s %s cannot be made canonical (%s): field, rule in words, example, no value', (kind, value, code) => {
    const { problem } = canonicalIdentifier(kind, value, 'theField');
    expect(problem).toBeDefined();
    expect(problem!.code).toBe(code);
    expect(problem!.field).toBe('theField');
    expect(problem!.example).toBe(IDENTIFIER_FORMS[kind].example);
    expect(problem!.message).toBe(`theField ${problem!.rule}`);
    expect(problem!.rule).toContain(`e.g. ${IDENTIFIER_FORMS[kind].example}`);
    // No pattern: no anchors, classes, quantifiers or escapes.
    expect(problem!.rule).not.toMatch(/[\\^$[\]{}]/);
    const bare = value.replace(/[\p{P}\p{Zs}]/gu, '');
    expect(problem!.message).not.toContain(value);
    if (bare.length >= 4) expect(problem!.message).not.toContain(bare.slice(0, 4));
  });

  it('says how many digits a value has when it has the wrong number (for "a leading zero was lost")', () => {
    expect(canonicalIdentifier('cpf', '1234567890').problem).toMatchObject({ code: 'length', count: 10 });
    expect(canonicalIdentifier('cep', '1310100').problem).toMatchObject({ code: 'length', count: 7 });
  });

  it('refuses a value that is not text, naming the field', () => {
    expect(canonicalIdentifier('cpf', 52998224725, 'DocumentNumber').problem).toMatchObject({
      field: 'DocumentNumber',
      code: 'not-text',
    });
  });
});

describe('isValidCnpj', () => {
  // The Receita Federal's own example of the alphanumeric CNPJ, and numeric CNPJs of real companies
  // (Banco do Brasil, Petrobras, Itaú Unibanco), which stay valid.
  it.each([
    '12.ABC.345/01DE-35',
    '12ABC34501DE35',
    '00.000.000/0001-91',
    '00000000000191',
    '33.000.167/0001-01',
    '60.701.190/0001-04',
    '11.222.333/0001-81',
  ])('accepts %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    '12.ABC.345/01DE-53',
    '12ABC34501DE36',
    '12.ABC.345/01DF-35',
    '33.000.167/0001-02',
    '00000000000000',
    '12ABC34501DE3',
    '',
    '529.982.247-25',
  ])('rejects %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it('takes a CNPJ as isValidCpf takes a CPF: formatted or not', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(isValidCnpj('12ABC34501DE35'));
  });
});
