// The words of every rule a user can read in a BaasValidationError, keyword by keyword. They are built
// from the schema's side of the error only: the rejected value never appears.
import { describe, expect, it } from 'vitest';
import type { GeneratedValidatorError } from '../../src/generated/validators.js';
import { validateUpdateNaturalPersonQuery } from '../../src/validation/index.js';
import { ruleOf } from '../../src/validation/rules.js';

const error = (keyword: string, params: Record<string, unknown> = {}): GeneratedValidatorError => ({
  instancePath: '/x',
  schemaPath: '#/x',
  keyword,
  params,
});

describe('ruleOf', () => {
  it.each([
    ['required', { missingProperty: 'email' }, 'is required'],
    ['additionalProperties', { additionalProperty: 'foo' }, 'is not a field of the contract'],
    ['unevaluatedProperties', { unevaluatedProperty: 'foo' }, 'is not a field of the contract'],
    ['minProperties', { limit: 1 }, 'must hold at least 1 field'],
    ['minProperties', { limit: 2 }, 'must hold at least 2 fields'],
    ['maxProperties', { limit: 1 }, 'must hold at most 1 field'],
    ['maxProperties', { limit: 9 }, 'must hold at most 9 fields'],
    ['type', { type: 'string' }, 'must be a string'],
    ['type', { type: 'number' }, 'must be a number'],
    ['type', { type: 'integer' }, 'must be an integer'],
    ['type', { type: 'boolean' }, 'must be true or false'],
    ['type', { type: 'object' }, 'must be an object'],
    ['type', { type: 'array' }, 'must be an array'],
    ['type', { type: 'null' }, 'must be null'],
    ['type', { type: 'string,null' }, 'must be a string or null'],
    ['type', { type: 'tuple' }, 'must be tuple'],
    // A few of the values, so that `sp` for `SP` shows what is meant; never the data.
    [
      'enum',
      { allowedValues: ['SP', 'RJ', 'MG'] },
      'must be one of the 3 allowed values, spelt as the contract does: SP, RJ, MG',
    ],
    [
      'enum',
      { allowedValues: ['AC', 'AL', 'AP', 'AM', 'BA'] },
      'must be one of the 5 allowed values, spelt as the contract does: AC, AL, AP, …',
    ],
    ['enum', { allowedValues: 'SP' }, 'must be one of the allowed values'],
    ['const', { allowedValue: 'cpf' }, 'must be the one allowed value'],
    ['pattern', { pattern: '^[0-9]{8}$' }, 'must match the pattern ^[0-9]{8}$'],
    ['format', { format: 'email' }, 'must be an e-mail address'],
    ['format', { format: 'uuid' }, 'must be a UUID'],
    ['format', { format: 'date-time' }, 'must be a date-time (RFC 3339)'],
    ['format', { format: 'date' }, 'must be a date (YYYY-MM-DD)'],
    ['format', { format: 'uri' }, 'must be an absolute URI'],
    ['format', { format: 'uri-reference' }, 'must be a URI reference'],
    ['format', { format: 'ipv4' }, 'must be a valid ipv4'],
    ['minLength', { limit: 1 }, 'must have at least 1 character'],
    ['minLength', { limit: 3 }, 'must have at least 3 characters'],
    ['maxLength', { limit: 1 }, 'must have at most 1 character'],
    ['maxLength', { limit: 120 }, 'must have at most 120 characters'],
    ['minimum', { limit: 1 }, 'must be at least 1'],
    ['maximum', { limit: 200 }, 'must be at most 200'],
    ['exclusiveMinimum', { limit: 0 }, 'must be greater than 0'],
    ['exclusiveMaximum', { limit: 90 }, 'must be less than 90'],
    ['multipleOf', { multipleOf: 5 }, 'must be a multiple of 5'],
    ['minItems', { limit: 1 }, 'must hold at least 1 item'],
    ['minItems', { limit: 2 }, 'must hold at least 2 items'],
    ['maxItems', { limit: 1 }, 'must hold at most 1 item'],
    ['maxItems', { limit: 200 }, 'must hold at most 200 items'],
    ['uniqueItems', { i: 1, j: 0 }, 'must not repeat an item'],
    ['anyOf', {}, 'must match one of the allowed forms'],
    ['oneOf', { passingSchemas: null }, 'must match exactly one of the allowed forms'],
    ['dependentRequired', {}, 'breaks the "dependentRequired" rule of the contract'],
  ])('%s %j reads "%s"', (keyword, params, words) => {
    expect(ruleOf(error(keyword, params))).toBe(words);
  });
});

describe('a CPF written with dots and a dash as DocumentNumber', () => {
  it('gets one issue that says to send the contract form, with an example, without the value', () => {
    const issues = validateUpdateNaturalPersonQuery({ Account: '300541976902', DocumentNumber: '529.982.247-25' });
    expect(issues).toEqual([
      {
        path: 'DocumentNumber',
        rule: "must be sent in the contract's form, without separators, e.g. ########### (the client, updateMany and the command line send ###.###.###-## that way)",
        message:
          "DocumentNumber must be sent in the contract's form, without separators, e.g. ########### (the client, updateMany and the command line send ###.###.###-## that way)",
      },
    ]);
  });
});
