// Where validation meets odd input: field names that need escaping in a JSON pointer, a query that
// is not an object, a DocumentNumber that is not a string, and why cpfProblem refuses a value.
import { describe, expect, it } from 'vitest';
import { cpfProblem } from '../../src/validation/cpf.js';
import {
  validateListPixKeysQuery,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
} from '../../src/validation/index.js';

describe('JSON pointers of unknown body fields', () => {
  it('escape "~" as ~0 and "/" as ~1 (RFC 6901)', () => {
    const paths = validateNaturalPersonUpdate({ email: 'a@b.example', 'a/b': 1, 'c~d': 2 }).map((issue) => issue.path);
    expect(paths).toEqual(['/a~1b', '/c~0d']);
  });
});

describe('a query that is not an object', () => {
  it('is named as the query, with the rule', () => {
    expect(validateListPixKeysQuery(42)).toEqual([
      { path: '', rule: 'must be an object', message: 'the query must be an object' },
    ]);
    expect(validateUpdateNaturalPersonQuery('x')).toEqual([
      { path: '', rule: 'must be an object', message: 'the query must be an object' },
    ]);
  });
});

describe('DocumentNumber that is not a string', () => {
  it('gets the type issue only, never a check-digit verdict on a number', () => {
    const issues = validateUpdateNaturalPersonQuery({ Account: '1234567', DocumentNumber: 52998224724 });
    expect(issues).toEqual([
      { path: 'DocumentNumber', rule: 'must be a string', message: 'DocumentNumber must be a string' },
    ]);
  });
});

describe('cpfProblem', () => {
  it.each([
    ['123', 'not-11-digits'],
    ['5299822472a', 'not-11-digits'],
    ['529982247250', 'not-11-digits'],
    ['11111111111', 'repeated-digit'],
    ['52998224724', 'check-digits'],
    // The first check digit wrong, the second one right for the digits before it.
    ['52998224709', 'check-digits'],
    ['52998224725', undefined],
  ])('%s → %s', (value, problem) => {
    expect(cpfProblem(value)).toBe(problem);
  });
});

describe('a query parameter whose name needs escaping', () => {
  it('is reported by its name as written, "~" and "/" included', async () => {
    const { runValidator } = await import('../../src/validation/issues.js');
    const errors = [
      { instancePath: '', schemaPath: '', keyword: 'required', params: { missingProperty: 'a/b~c' } },
      { instancePath: '/x~1y~0z', schemaPath: '', keyword: 'type', params: { type: 'string' } },
    ];
    const validate = Object.assign(() => false, { errors });
    expect(runValidator(validate, {}, 'query')).toEqual([
      { path: 'a/b~c', rule: 'is required', message: 'a/b~c is required' },
      { path: 'x/y~z', rule: 'must be a string', message: 'x/y~z must be a string' },
    ]);
  });
});

describe('an issue as data', () => {
  it('carries its rule apart from its field, and its message is the field then the rule, for every issue', () => {
    const issues = [
      ...validateUpdateNaturalPersonQuery({ Account: 'x', DocumentNumber: '529.982.247-24' }),
      ...validateListPixKeysQuery({ limit: 0, cursor: '', extra: 1 }),
      ...validateUpdateNaturalPersonQuery(7),
    ];
    expect(issues.length).toBeGreaterThanOrEqual(5);
    for (const issue of issues) {
      expect(issue.rule).not.toBe('');
      expect(issue.message).toBe(`${issue.path === '' ? 'the query' : issue.path} ${issue.rule}`);
    }
  });
});
