// One declaration per options type (src/option-rules.ts): its names are the ones "did you mean" offers,
// its rules are the checks, each refused with the class it declares, in the declaration's order.
import { describe, expect, it } from 'vitest';
import { AS_GIVEN, checkOptionValues, checkOptions, must, type OptionRules, within } from '../../src/option-rules.js';

interface Options {
  count?: number;
  name: string;
  tags?: readonly string[];
  hook?: () => void;
}

const RULES: OptionRules<Options> = {
  count: within((value) => Number.isInteger(value) && (value as number) >= 1, 'must be a whole number of at least 1'),
  name: {
    check: (value) => (typeof value === 'string' && value ? undefined : 'is required'),
    error: TypeError,
    required: true,
  },
  tags: {
    check: (value) => {
      const wrong = (value as unknown[]).findIndex((tag) => typeof tag !== 'string');
      return wrong < 0 ? undefined : `[${wrong}] must be a string`;
    },
    error: TypeError,
  },
  hook: AS_GIVEN,
};

const refusal = (run: () => void): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('accepted');
};

describe('checkOptions', () => {
  it('refuses a misspelt name with the one the declaration holds, before any value', () => {
    const error = refusal(() => checkOptions('make', { name: 'x', cuont: 0 } as never, RULES));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('make: unknown option "cuont"; did you mean count?');
    expect(refusal(() => checkOptions('make', { name: 'x', size: 2 } as never, RULES, { size: 'count' })).message).toBe(
      'make: unknown option "size"; did you mean count?',
    );
  });

  it("refuses a value with the rule's class and words after the option's name", () => {
    const range = refusal(() => checkOptions('make', { name: 'x', count: 0 }, RULES));
    expect(range).toBeInstanceOf(RangeError);
    expect(range.message).toBe('make: count must be a whole number of at least 1');
    const item = refusal(() => checkOptions('make', { name: 'x', tags: ['a', 2 as never] }, RULES));
    expect(item).toBeInstanceOf(TypeError);
    expect(item.message).toBe('make: tags[1] must be a string');
  });

  it('checks a missing option only when its rule is required, and the first broken rule in order', () => {
    expect(refusal(() => checkOptions('make', {} as Options, RULES)).message).toBe('make: name is required');
    expect(refusal(() => checkOptions('make', { count: 0, name: '' }, RULES)).message).toMatch(/^make: count /);
    expect(() => checkOptions('make', { name: 'x', hook: 'anything' as never }, RULES)).not.toThrow();
  });

  it('leaves alone members far from every name, and checkOptionValues never looks at names', () => {
    expect(() => checkOptions('make', { name: 'x', unrelatedMember: 1 } as never, RULES)).not.toThrow();
    expect(() => checkOptionValues('make', { name: 'x', cuont: 0 } as never, RULES)).not.toThrow();
    expect(refusal(() => checkOptionValues('make', { name: 'x', count: 1.5 }, RULES))).toBeInstanceOf(RangeError);
  });

  it('must and within state a rule as a TypeError and a RangeError', () => {
    expect(must(() => false, 'w').error).toBe(TypeError);
    expect(within(() => false, 'w').error).toBe(RangeError);
    expect(must(() => true, 'w').check(1)).toBeUndefined();
    expect(within(() => false, 'w').check(1)).toBe('w');
  });
});
