// The query validators: object schemas built from the operations' parameters in the spec, plus
// the CPF check digits of DocumentNumber. Paths are the parameters' names.
import { describe, expect, it } from 'vitest';
import { validateListPixKeysQuery, validateUpdateNaturalPersonQuery } from '../../src/index.js';
import { VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';
import { deref, spec } from '../support/spec.js';

const paths = (issues: { path: string }[]) => [...new Set(issues.map((i) => i.path))];

describe('validateUpdateNaturalPersonQuery', () => {
  it('accepts a valid account and CPF', () => {
    expect(validateUpdateNaturalPersonQuery({ Account: VALID_ACCOUNT, DocumentNumber: VALID_CPF })).toEqual([]);
  });

  it("requires exactly the operation's required query parameters, as the spec lists them", () => {
    const required = (spec.paths['/v2/api/baas-onboarding/account/natural-person']!.put.parameters as unknown[])
      .map((p) => deref<{ name: string; in: string; required?: boolean }>(p))
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => p.name);
    expect(required).toEqual(['Account', 'DocumentNumber']);
    expect(validateUpdateNaturalPersonQuery({})).toEqual(
      required.map((name) => ({ path: name, rule: 'is required', message: `${name} is required` })),
    );
  });

  // [case, query, the one path reported, what every message at that path says]
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['a missing DocumentNumber', { Account: VALID_ACCOUNT }, 'DocumentNumber', /^DocumentNumber is required$/],
    [
      'a 10-digit DocumentNumber',
      { Account: VALID_ACCOUNT, DocumentNumber: '5299822472' },
      'DocumentNumber',
      /^DocumentNumber must be a CPF: 11 digits, with or without separators, e\.g\. ###\.###\.###-##; it has 10 digits$/,
    ],
    [
      'a DocumentNumber with punctuation',
      { Account: VALID_ACCOUNT, DocumentNumber: '529.982.247' },
      'DocumentNumber',
      /^DocumentNumber must be a CPF: .*; it has 9 digits$/,
    ],
    [
      'a wrong CPF check digit',
      { Account: VALID_ACCOUNT, DocumentNumber: '52998224715' },
      'DocumentNumber',
      /^DocumentNumber is not a CPF: its check digits do not match \(the form is .*, e\.g\. ###\.###\.###-##\)$/,
    ],
    [
      'a repeated-digit CPF',
      { Account: VALID_ACCOUNT, DocumentNumber: '00000000000' },
      'DocumentNumber',
      /^DocumentNumber is not a CPF: one character repeated all along is never one/,
    ],
    ['a missing Account', { DocumentNumber: VALID_CPF }, 'Account', /^Account is required$/],
    [
      'an Account with letters',
      { Account: '30054A', DocumentNumber: VALID_CPF },
      'Account',
      /^Account must match the pattern /,
    ],
    [
      'an Account over 20 digits',
      { Account: '9'.repeat(21), DocumentNumber: VALID_CPF },
      'Account',
      /^Account must (have at most 20 characters|match the pattern .+)$/,
    ],
    [
      'an Account as a number',
      { Account: 300541976902, DocumentNumber: VALID_CPF },
      'Account',
      /^Account must be a string$/,
    ],
  ])('rejects %s', (_case, query, path, message) => {
    const issues = validateUpdateNaturalPersonQuery(query);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(issue.path).toBe(path);
      expect(issue.message).toMatch(message);
    }
  });

  it('reports bad Account and bad CPF digits together', () => {
    expect(paths(validateUpdateNaturalPersonQuery({ Account: 'x', DocumentNumber: '52998224715' }))).toEqual([
      'Account',
      'DocumentNumber',
    ]);
  });

  it('rejects a query that is not an object, at the root', () => {
    expect(validateUpdateNaturalPersonQuery(null)).toEqual([
      { path: '', rule: 'must be an object', message: 'the query must be an object' },
    ]);
  });
});

describe('validateListPixKeysQuery', () => {
  it('accepts no parameters, unset ones, and the bounds of limit with a cursor', () => {
    expect(validateListPixKeysQuery({})).toEqual([]);
    expect(validateListPixKeysQuery({ limit: undefined, cursor: undefined })).toEqual([]);
    expect(validateListPixKeysQuery({ limit: 1, cursor: 'eyJvZmZzZXQiOjJ9' })).toEqual([]);
    expect(validateListPixKeysQuery({ limit: 200 })).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['limit 0', { limit: 0 }, 'limit', 'limit must be at least 1'],
    ['limit 201', { limit: 201 }, 'limit', 'limit must be at most 200'],
    ['a fractional limit', { limit: 1.5 }, 'limit', 'limit must be an integer'],
    ['a limit as text', { limit: '10' }, 'limit', 'limit must be an integer'],
    [
      'a cursor with spaces',
      { cursor: 'a b' },
      'cursor',
      'cursor must match the pattern ^[A-Za-z0-9._~=-]+$, e.g. eyJvZmZzZXQiOjJ9',
    ],
    ['an empty cursor', { cursor: '' }, 'cursor', 'cursor must have at least 1 character'],
  ])('rejects %s', (_case, query, path, message) => {
    expect(validateListPixKeysQuery(query)).toContainEqual({ path, rule: message.slice(path.length + 1), message });
    expect(paths(validateListPixKeysQuery(query))).toEqual([path]);
  });
});
