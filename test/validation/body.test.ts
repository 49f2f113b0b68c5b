// validateNaturalPersonUpdate: the spec's examples pass, and each broken rule is reported once, at
// the field that broke it, in words.
import { describe, expect, it } from 'vitest';
import { validateNaturalPersonUpdate } from '../../src/index.js';
import { exampleValue, fullUpdate } from '../support/fixtures.js';
import { deref, spec } from '../support/spec.js';

const address = (patch: Record<string, unknown>) => ({ address: { ...fullUpdate().address, ...patch } });
const ufCount = deref<{ enum: string[] }>(spec.components.schemas!.BrazilianState).enum.length;

describe('validateNaturalPersonUpdate', () => {
  it.each(['FullUpdate', 'ContactUpdate', 'AddressUpdate'])('accepts the %s example of the spec', (name) => {
    expect(validateNaturalPersonUpdate(exampleValue(name))).toEqual([]);
  });

  // [case, body, the one path reported, what every message at that path says]
  it.each<[string, unknown, string, RegExp]>([
    [
      'a phone without the plus sign',
      { phoneNumber: '11987654321' },
      '/phoneNumber',
      /^\/phoneNumber must be a phone number in international form: .*, e\.g\. \+55 \(DD\) 9####-####; it does not start with \+ and the country code/,
    ],
    ['a bad e-mail', { email: 'maria@' }, '/email', /^\/email must be an e-mail address$/],
    [
      'an unknown UF',
      address({ state: 'XX' }),
      '/address/state',
      new RegExp(
        `^/address/state must be one of the ${ufCount} allowed values, spelt as the contract does: AC, AL, AP, …$`,
      ),
    ],
    [
      // As Brazilians often type it: the UF code in lower case.
      'a UF in lower case',
      address({ state: 'sp' }),
      '/address/state',
      /^\/address\/state must be one of the 27 allowed values, spelt as the contract does: AC, AL, AP, …$/,
    ],
    [
      'a 7-digit CEP',
      address({ postalCode: '0131010' }),
      '/address/postalCode',
      /^\/address\/postalCode must be a CEP: 8 digits, written #####-### or without separators, e\.g\. 01310-100; it has 7 digits$/,
    ],
    [
      'a non-numeric coordinate',
      address({ longitude: '46W' }),
      '/address/longitude',
      /^\/address\/longitude must match the pattern /,
    ],
    [
      'a too-long socialName',
      { socialName: 'a'.repeat(121) },
      '/socialName',
      /^\/socialName must have at most 120 characters$/,
    ],
    [
      'isPoliticallyExposedPerson as a string',
      { isPoliticallyExposedPerson: 'true' },
      '/isPoliticallyExposedPerson',
      /^\/isPoliticallyExposedPerson must be true or false$/,
    ],
    [
      'an unknown property',
      { socialName: 'Maria', fullName: 'Maria' },
      '/fullName',
      /^\/fullName is not a field of the contract$/,
    ],
    [
      'an unknown address property',
      address({ country: 'BR' }),
      '/address/country',
      /^\/address\/country is not a field of the contract$/,
    ],
    ['an address without city', address({ city: undefined }), '/address/city', /^\/address\/city is required$/],
    ['an empty body', {}, '', /^the body must hold at least 1 field$/],
    ['an array for a body', [], '', /^the body must be an object$/],
  ])('rejects %s', (_case, body, path, message) => {
    const issues = validateNaturalPersonUpdate(body);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(issue.path).toBe(path);
      expect(issue.message).toMatch(message);
    }
  });

  it('reports every problem at once, each path and rule once', () => {
    const body = { phoneNumber: '0', fullName: 'x', ...address({ state: 'XX', postalCode: '1', city: undefined }) };
    const issues = validateNaturalPersonUpdate(body);
    expect(new Set(issues.map((i) => i.path))).toEqual(
      new Set(['/phoneNumber', '/fullName', '/address/state', '/address/postalCode', '/address/city']),
    );
    expect(new Set(issues.map((i) => `${i.path} ${i.message}`)).size).toBe(issues.length);
  });

  it('points an unknown property with a slash in its name at that property, escaped', () => {
    expect(validateNaturalPersonUpdate({ socialName: 'Maria', 'a/b': 1 }).map((i) => i.path)).toEqual(['/a~1b']);
  });

  it('counts string lengths in characters, not UTF-16 units', () => {
    expect(validateNaturalPersonUpdate({ socialName: '👩'.repeat(120) })).toEqual([]);
    expect(validateNaturalPersonUpdate({ socialName: '👩'.repeat(121) }).map((i) => i.path)).toEqual(['/socialName']);
  });
});
