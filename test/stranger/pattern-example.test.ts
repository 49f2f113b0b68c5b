// A coordinate typed the pt-BR way (`-23,5613991`, a decimal comma) broke a pattern that few read
// at a glance: the rule now shows the contract's own example of the pattern, so the fix (a point) is
// in the message. An example the masking would hide (CPF-shaped) is shown as its shape (`###########`).
import { describe, expect, it } from 'vitest';
import { PATTERN_EXAMPLES } from '../../src/generated/bounds.js';
import { redactText } from '../../src/redact.js';
import { validateNaturalPersonUpdate } from '../../src/validation/index.js';
import { patternExample } from '../../src/validation/rules.js';

const address = {
  postalCode: '01310100',
  street: 'Avenida Paulista',
  number: '1578',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
};

describe('a pattern broken by the caller', () => {
  it('shows the example of the pattern: a decimal comma meets -46.6558819', () => {
    const issues = validateNaturalPersonUpdate({ address: { ...address, latitude: '-23,5613991' } });
    expect(issues).toEqual([
      {
        path: '/address/latitude',
        rule: 'must match the pattern ^-?[0-9]{1,12}(\\.[0-9]{1,12})?$, e.g. -46.6558819',
        message: '/address/latitude must match the pattern ^-?[0-9]{1,12}(\\.[0-9]{1,12})?$, e.g. -46.6558819',
      },
    ]);
  });

  it('every example is one of its pattern, and one the masking would hide is shown as its shape', () => {
    const shown = (pattern: string) =>
      patternExample({ instancePath: '', schemaPath: '', keyword: 'pattern', params: { pattern } });
    for (const [pattern, example] of Object.entries(PATTERN_EXAMPLES)) {
      expect(new RegExp(pattern, 'u').test(example), pattern).toBe(true);
      expect(shown(pattern), pattern).toBe(
        `, e.g. ${redactText(example) === example ? example : example.replace(/[0-9]/g, '#')}`,
      );
    }
    // The CPF's pattern has a CPF as its example: masked everywhere, so shown as its shape.
    expect(PATTERN_EXAMPLES['^[0-9]{11}$']).toBeDefined();
    expect(shown('^[0-9]{11}$')).toBe(', e.g. ###########');
    expect(patternExample({ instancePath: '', schemaPath: '', keyword: 'maxLength', params: { limit: 3 } })).toBe('');
  });
});
