// fast-check generators of valid domain values. Limits and value sets are read from the bundled
// spec (src/generated/openapi.json), never copied by hand, so a change of the contract moves them.
import fc from 'fast-check';
import type { Address, BrazilianState, NaturalPersonUpdate } from '../../src/types.js';
import { deref, spec } from './spec.js';

interface StringSchema {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

const schemas = spec.components.schemas!;
const bodyProperties = schemas.NaturalPersonUpdate.properties as Record<string, unknown>;
const addressProperties = schemas.Address.properties as Record<string, unknown>;

/** The string schema of a body field, by JSON pointer: `/socialName`, `/address/city`. */
export function stringSchemaAt(pointer: string): Required<Pick<StringSchema, 'maxLength'>> & StringSchema {
  const [first, second] = pointer.split('/').slice(1);
  const node = deref<StringSchema & { type?: string }>(
    second === undefined ? bodyProperties[first!] : addressProperties[second],
  );
  if (node?.type !== 'string' || node.maxLength === undefined)
    throw new Error(`${pointer} is not a bounded string in the spec`);
  return node as Required<Pick<StringSchema, 'maxLength'>> & StringSchema;
}

/** Every bounded string field of the update body, as JSON pointers. */
export const STRING_FIELDS: string[] = [
  ...Object.keys(bodyProperties)
    .filter((name) => deref<{ type?: string }>(bodyProperties[name])?.type === 'string')
    .map((name) => `/${name}`),
  ...Object.keys(addressProperties)
    .filter((name) => deref<{ type?: string }>(addressProperties[name])?.type === 'string')
    .map((name) => `/address/${name}`),
];
// Every code point but the controls (Unicode Cc) and lone surrogates, in one text; and each control
// alone. The set of Cc code points is immutable (Unicode's stability policy) and lies below U+0100, so
// only those are tested against \p{Cc}; the text is built in chunks to keep this import fast.
const CONTROL = /^\p{Cc}$/u;
const isControl = (code: number): boolean => code < 0x100 && CONTROL.test(String.fromCodePoint(code));
const CHUNK = 4096;
const ALL_BUT_CONTROLS = Array.from({ length: 0x110000 / CHUNK }, (_, index) => {
  const codes: number[] = [];
  for (let code = index * CHUNK; code < (index + 1) * CHUNK; code += 1)
    if ((code < 0xd800 || code > 0xdfff) && !isControl(code)) codes.push(code);
  return String.fromCodePoint(...codes);
}).join('');
const CONTROLS = Array.from({ length: 0x100 }, (_, code) => code)
  .filter(isControl)
  .map((code) => String.fromCodePoint(code));
/** A pattern (as Ajv compiles it, with the u flag) that takes any text without a control character, and no control. */
const takesAnyTextButControls = (pattern: string): boolean => {
  const rule = new RegExp(pattern, 'u');
  return rule.test(ALL_BUT_CONTROLS) && CONTROLS.every((control) => !rule.test(`a${control}b`));
};
/**
 * String fields with no format and either no pattern or one that refuses only control characters
 * (issue 34: text fields refuse Unicode Cc): any text without a control within the length limits is valid.
 */
export const FREE_TEXT_FIELDS = STRING_FIELDS.filter((pointer) => {
  const schema = stringSchemaAt(pointer);
  return schema.format === undefined && (schema.pattern === undefined || takesAnyTextButControls(schema.pattern));
});
export const BODY_PROPERTIES = Object.keys(bodyProperties);
export const ADDRESS_PROPERTIES = Object.keys(addressProperties);
export const REQUIRED_ADDRESS_FIELDS = schemas.Address.required as string[];
export const BRAZILIAN_STATES = schemas.BrazilianState.enum as BrazilianState[];

const paramSchema = (name: string) =>
  deref<{ schema: StringSchema & { minimum?: number; maximum?: number } }>(spec.components.parameters![name]).schema;
export const LIMIT_RANGE = { min: paramSchema('Limit').minimum!, max: paramSchema('Limit').maximum! };
export const CURSOR_MAX_LENGTH = paramSchema('PageCursor').maxLength!;

// ---------------------------------------------------------------------------------------------
// Digits and documents

export const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((ds) => ds.join(''));

/** The two CPF check digits of nine base digits: weights 10..2, then 11..2; remainder < 2 gives 0. */
export function cpfCheckDigits(base: readonly number[]): [number, number] {
  const check = (ds: readonly number[]): number => {
    const sum = ds.reduce((acc, d, i) => acc + d * (ds.length + 1 - i), 0);
    const remainder = sum % 11;
    return remainder < 2 ? 0 : 11 - remainder;
  };
  const first = check(base);
  return [first, check([...base, first])];
}

/** Valid CPFs: nine base digits (not all the same), then the two check digits. */
export const cpf: fc.Arbitrary<string> = fc
  .array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 })
  .filter((base) => new Set(base).size > 1)
  .map((base) => [...base, ...cpfCheckDigits(base)].join(''));

/** A valid CPF with one of its two check digits changed: the right shape, the wrong digits. */
export const cpfWithWrongCheckDigit: fc.Arbitrary<string> = fc
  .tuple(cpf, fc.constantFrom(9, 10), fc.integer({ min: 1, max: 9 }))
  .map(
    ([valid, index, shift]) =>
      valid.slice(0, index) + String((Number(valid[index]) + shift) % 10) + valid.slice(index + 1),
  );

/** 000.000.000-00 and its kind: the check-digit arithmetic holds, but they are never issued. */
export const repeatedDigitCpf: fc.Arbitrary<string> = fc.integer({ min: 0, max: 9 }).map((d) => String(d).repeat(11));

export const account: fc.Arbitrary<string> = digits(1, 20);

// ---------------------------------------------------------------------------------------------
// Contact

/** E.164: `+`, a non-zero digit, then 1 to 14 digits; Brazilian mobiles most of the time. */
export const e164: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.integer({ min: 11, max: 99 }), digits(8, 8)).map(([ddd, rest]) => `+55${ddd}9${rest}`),
  fc.tuple(fc.integer({ min: 1, max: 9 }), digits(1, 14)).map(([first, rest]) => `+${first}${rest}`),
);

const lower = 'abcdefghijklmnopqrstuvwxyz';
const alnum = `${lower}0123456789`;
const chars = (pool: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...pool), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
/** A DNS label: letters and digits, hyphens only inside. */
const label = (max: number) =>
  fc.oneof(
    chars(alnum, 1, Math.min(max, 20)),
    fc.tuple(chars(alnum, 1, 10), chars(alnum, 1, 10)).map(([a, b]) => `${a}-${b}`),
  );

const emailSchema = stringSchemaAt('/email');

/** `local@labels.com.br` of exactly `length` characters: DNS labels of at most 63, dots between. */
function emailOfLength(local: string, filler: string, length: number): string {
  const tld = '.com.br';
  let domainLength = length - local.length - 1 - tld.length;
  const labels: string[] = [];
  for (let _i = 0; domainLength > 0; _i += 1) {
    // A label, then a dot when more follows; never a label shorter than one character.
    const size = domainLength <= 63 ? domainLength : Math.min(63, domainLength - 2);
    labels.push(filler.repeat(Math.ceil(size / filler.length)).slice(0, size));
    domainLength -= size + (domainLength > size ? 1 : 0);
  }
  return `${local}@${labels.join('.')}${tld}`;
}

/** Plain ASCII addresses like `maria.silva@email.com.br`; now and then one at or just under the length limit. */
export const email: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.array(chars(alnum, 1, 12), { minLength: 1, maxLength: 3 }),
        label(20),
        fc.constantFrom('com', 'com.br', 'org.br', 'gov.br', 'net', 'io'),
      )
      .map(([local, domain, tld]) => `${local.join('.')}@${domain}.${tld}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        chars(alnum, 1, 64),
        chars(alnum, 1, 8),
        fc.integer({ min: emailSchema.maxLength - 10, max: emailSchema.maxLength }),
      )
      .map(([local, filler, length]) => emailOfLength(local, filler, length)),
  },
);

// ---------------------------------------------------------------------------------------------
// Free text: Portuguese names and places, sometimes exactly at the length limit.

const WORDS = [
  'Maria',
  'José',
  'Conceição',
  'Ana',
  'João',
  'Luíza',
  'Antônio',
  'Sebastião',
  'Inês',
  'Gonçalves',
  'da',
  'de',
  'dos',
  'Silva',
  'Souza',
  'Araújo',
  'Avenida',
  'Rua',
  'Travessa',
  'Paulista',
  'Bela',
  'Vista',
  'São',
  'Paulo',
  'Belém',
  'Florianópolis',
  'Apto',
  'Bloco',
  'Casa',
  "D'Ávila",
  'Guimarães',
  'Jardim',
  'Fundos',
  '42',
  '7',
  'Setembro',
  'Açaí',
  'Ipê',
  'Ñandú',
  'Zoë',
];
// One code point each, some outside the BMP: a length limit counts code points, not UTF-16 units.
const TEXT_UNITS = [...`${lower}ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789áàâãçéêíóôõúüÁÂÃÇÉÍÓÔÕÚ '-.,/º`, '😀', '𝄞', '中'];

/** Any text of `min`..`max` code points. */
export const textOfLength = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...TEXT_UNITS), { minLength: min, maxLength: max }).map((units) => units.join(''));

/** Free text within [min, max]: mostly words, sometimes exactly the limit. */
export function freeText(min: number, max: number): fc.Arbitrary<string> {
  const words = fc
    .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 })
    .map((ws) => [...ws.join(' ')].slice(0, max).join(''))
    .filter((text) => [...text].length >= min);
  return fc.oneof(
    { weight: 6, arbitrary: words },
    { weight: 1, arbitrary: textOfLength(max, max) },
    { weight: 1, arbitrary: textOfLength(min, max) },
  );
}
const textFor = (pointer: string): fc.Arbitrary<string> => {
  const schema = stringSchemaAt(pointer);
  return freeText(schema.minLength ?? 0, schema.maxLength);
};

// ---------------------------------------------------------------------------------------------
// Address

export const uf: fc.Arbitrary<BrazilianState> = fc.constantFrom(...BRAZILIAN_STATES);
export const cep: fc.Arbitrary<string> = digits(8, 8);
/** Numeric text: optional minus, 1-12 digits, optional decimal part of 1-12 digits. */
export const coordinate: fc.Arbitrary<string> = fc
  .tuple(fc.boolean(), digits(1, 12), fc.option(digits(1, 12), { nil: undefined }))
  .map(
    ([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
  );

const addressFields = {
  postalCode: cep,
  street: textFor('/address/street'),
  number: fc.oneof(digits(1, 5), fc.constant('S/N'), textFor('/address/number')),
  addressComplement: textFor('/address/addressComplement'),
  neighborhood: textFor('/address/neighborhood'),
  city: textFor('/address/city'),
  state: uf,
  longitude: coordinate,
  latitude: coordinate,
};

/** A valid address: the required parts, and any of the optional ones. */
export const address: fc.Arbitrary<Address> = fc.record(addressFields, {
  requiredKeys: ['postalCode', 'street', 'number', 'neighborhood', 'city', 'state'],
});

// ---------------------------------------------------------------------------------------------
// Update bodies

const bodyFields = {
  phoneNumber: e164,
  email,
  socialName: textFor('/socialName'),
  isPoliticallyExposedPerson: fc.boolean(),
  address,
};

/** Any valid update: some of the fields, at least one (the body has minProperties 1). */
export const naturalPersonUpdate: fc.Arbitrary<NaturalPersonUpdate> = fc
  .record(bodyFields, { requiredKeys: [] })
  .filter((body) => Object.keys(body).length > 0);

/** Every field present, optional address parts included, so any field can be broken. */
export const fullNaturalPersonUpdate: fc.Arbitrary<Required<NaturalPersonUpdate> & { address: Required<Address> }> =
  fc.record({
    ...bodyFields,
    address: fc.record(addressFields),
  });

/** A valid list query: limit in range and an opaque cursor made of the allowed characters, each optional. */
export const listQuery: fc.Arbitrary<{ limit?: number; cursor?: string }> = fc.record(
  {
    limit: fc.integer(LIMIT_RANGE),
    cursor: fc.oneof(
      chars(`${alnum}ABCDEFGHIJKLMNOPQRSTUVWXYZ._~=-`, 1, 40),
      chars(`${alnum}=`, CURSOR_MAX_LENGTH, CURSOR_MAX_LENGTH),
    ),
  },
  { requiredKeys: [] },
);
