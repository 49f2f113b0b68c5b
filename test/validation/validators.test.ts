// The exported validators: the spec's rules with the right paths, CPF digits, and no values in messages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isValidCpf,
  validateListPixKeysQuery,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
} from '../../src/index.js';
import { exampleValue, fullUpdate, VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';

const paths = (issues: { path: string }[]) => issues.map((i) => i.path);
const address = (patch: Record<string, unknown>) => ({ address: { ...fullUpdate().address, ...patch } });

describe('validateNaturalPersonUpdate', () => {
  it.each(['FullUpdate', 'ContactUpdate', 'AddressUpdate'])('accepts the %s example', (name) => {
    expect(validateNaturalPersonUpdate(exampleValue(name))).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['bad phone', { phoneNumber: '+0123' }, '/phoneNumber'],
    ['bad e-mail', { email: 'maria@' }, '/email'],
    ['unknown UF', address({ state: 'XX' }), '/address/state'],
    ['7-digit CEP', address({ postalCode: '0131010' }), '/address/postalCode'],
    ['non-numeric coordinate', address({ longitude: '46W' }), '/address/longitude'],
    ['too-long social name', { socialName: 'a'.repeat(121) }, '/socialName'],
    ['PEP flag as a string', { isPoliticallyExposedPerson: 'true' }, '/isPoliticallyExposedPerson'],
    ['unknown property', { socialName: 'Maria', fullName: 'Maria' }, '/fullName'],
    ['unknown address property', address({ country: 'BR' }), '/address/country'],
    ['address without city', address({ city: undefined }), '/address/city'],
    ['empty body', {}, ''],
    ['an array instead of an object', [], ''],
  ])('rejects %s at %s', (_rule, body, path) => {
    const issues = validateNaturalPersonUpdate(body);
    expect(paths(issues)).toContain(path);
    for (const issue of issues) expect(issue.message).toMatch(path === '' ? /^the body / : new RegExp(`^${path} `));
  });
});

describe('validateUpdateNaturalPersonQuery', () => {
  it('accepts a valid account and CPF', () => {
    expect(validateUpdateNaturalPersonQuery({ Account: VALID_ACCOUNT, DocumentNumber: VALID_CPF })).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['missing DocumentNumber', { Account: VALID_ACCOUNT }, 'DocumentNumber'],
    ['10-digit DocumentNumber', { Account: VALID_ACCOUNT, DocumentNumber: '5299822472' }, 'DocumentNumber'],
    ['non-digit DocumentNumber', { Account: VALID_ACCOUNT, DocumentNumber: '529.982.247' }, 'DocumentNumber'],
    ['wrong CPF check digit', { Account: VALID_ACCOUNT, DocumentNumber: '52998224715' }, 'DocumentNumber'],
    ['repeated-digit CPF', { Account: VALID_ACCOUNT, DocumentNumber: '00000000000' }, 'DocumentNumber'],
    ['missing Account', { DocumentNumber: VALID_CPF }, 'Account'],
    ['Account with letters', { Account: '12A4', DocumentNumber: VALID_CPF }, 'Account'],
    ['Account over 20 digits', { Account: '9'.repeat(21), DocumentNumber: VALID_CPF }, 'Account'],
  ])('rejects %s', (_rule, query, path) => {
    expect(paths(validateUpdateNaturalPersonQuery(query))).toContain(path);
  });
});

describe('validateListPixKeysQuery', () => {
  it('accepts no parameters, and a limit with a cursor', () => {
    expect(validateListPixKeysQuery({})).toEqual([]);
    expect(validateListPixKeysQuery({ limit: 200, cursor: 'eyJvZmZzZXQiOjJ9' })).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 201', { limit: 201 }, 'limit'],
    ['a fractional limit', { limit: 1.5 }, 'limit'],
    ['a cursor with spaces', { cursor: 'a b' }, 'cursor'],
  ])('rejects %s', (_rule, query, path) => {
    expect(paths(validateListPixKeysQuery(query))).toEqual([path]);
  });
});

describe('isValidCpf', () => {
  it.each(['52998224725', '12345678909', '39053344705', '05231794309'])('accepts %s', (cpf) => expect(isValidCpf(cpf)).toBe(true));
  it.each(['52998224724', '52998224735', '11111111111', '5299822472', '529982247250', 'abcdefghijk'])('rejects %s', (cpf) =>
    expect(isValidCpf(cpf)).toBe(false),
  );
});

describe('privacy and build', () => {
  it('never puts the rejected value in a message', () => {
    const messages = [
      ...validateUpdateNaturalPersonQuery({ Account: 'ABC', DocumentNumber: '52998224715' }),
      ...validateNaturalPersonUpdate({ phoneNumber: '11987654321', email: 'maria@', secret: '52998224725' }),
    ].map((i) => i.message);
    expect(messages.length).toBeGreaterThanOrEqual(4);
    for (const text of ['52998224715', '11987654321', 'maria@', '52998224725']) expect(messages.join('\n')).not.toContain(text);
  });

  it('ships validators as plain code: no eval, no Function, no Ajv import', () => {
    const source = readFileSync(new URL('../../src/generated/validators.js', import.meta.url), 'utf8');
    expect(source).not.toMatch(/new Function|\beval\(/);
    expect(source).not.toMatch(/^import /m);
    // Ajv keeps a `'require("ajv/…")'` string for its own code generation; only real calls matter.
    expect(source).not.toMatch(/(?<!['"])\brequire\(/);
    expect(source).toMatch(/export \{[^}]*naturalPersonUpdate/);
  });
});
