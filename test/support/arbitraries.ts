// fast-check generators of valid domain values; value sets come from the bundled spec.
import fc from 'fast-check';
import type { Address, BrazilianState, NaturalPersonUpdate } from '../../src/types.js';
import { spec } from './spec.js';

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((ds) => ds.join(''));

function cpfCheckDigits(base: number[]): [number, number] {
  const check = (ds: number[]) => {
    const sum = ds.reduce((acc, d, i) => acc + d * (ds.length + 1 - i), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = check(base);
  return [first, check([...base, first])];
}

/** Valid CPFs: nine base digits, two check digits, never one repeated digit. */
export const cpf = fc
  .array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 })
  .filter((base) => new Set(base).size > 1)
  .map((base) => [...base, ...cpfCheckDigits(base)].join(''));

/** A CPF with one check digit changed: right shape, wrong digits. */
export const cpfWithWrongCheckDigit = fc.tuple(cpf, fc.integer({ min: 1, max: 9 })).map(([valid, shift]) => {
  const last = (Number(valid[10]) + shift) % 10;
  return valid.slice(0, 10) + String(last);
});

export const e164 = fc.tuple(fc.integer({ min: 1, max: 9 }), digits(1, 14)).map(([first, rest]) => `+${first}${rest}`);
export const uf = fc.constantFrom(...(spec.components.schemas!.BrazilianState.enum as BrazilianState[]));
export const cep = digits(8, 8);
export const coordinate = fc
  .tuple(fc.boolean(), digits(1, 12), fc.option(digits(1, 12), { nil: undefined }))
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);
export const account = digits(1, 20);

const letters = 'abcdefghijklmnopqrstuvwxyz';
const word = (min: number, max: number) =>
  fc.array(fc.constantFrom(...letters), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
const name = (max: number) =>
  fc.array(word(1, 12), { minLength: 1, maxLength: 4 }).map((ws) => ws.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ').slice(0, max));

export const email = fc.tuple(word(1, 20), word(1, 15), fc.constantFrom('com', 'com.br', 'org.br', 'net')).map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
export const socialName = name(120);

export const address: fc.Arbitrary<Address> = fc.record(
  {
    postalCode: cep,
    street: name(120),
    number: fc.oneof(digits(1, 5), fc.constant('S/N')),
    addressComplement: name(60),
    neighborhood: name(60),
    city: name(60),
    state: uf,
    longitude: coordinate,
    latitude: coordinate,
  },
  { requiredKeys: ['postalCode', 'street', 'number', 'neighborhood', 'city', 'state'] },
);

/** Any valid update: some of the fields, at least one. */
export const naturalPersonUpdate: fc.Arbitrary<NaturalPersonUpdate> = fc
  .record(
    { phoneNumber: e164, email, socialName, isPoliticallyExposedPerson: fc.boolean(), address },
    { requiredKeys: [] },
  )
  .filter((body) => Object.keys(body).length > 0);

/** Every field present, so any field can be broken. */
export const fullNaturalPersonUpdate: fc.Arbitrary<Required<NaturalPersonUpdate>> = fc.record({
  phoneNumber: e164,
  email,
  socialName,
  isPoliticallyExposedPerson: fc.boolean(),
  address: address.map((a) => ({ ...a, addressComplement: a.addressComplement ?? 'Casa', longitude: a.longitude ?? '0', latitude: a.latitude ?? '0' })),
});
