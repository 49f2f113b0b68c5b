// One declaration per options type (src/option-rules.ts): its names are the ones "did you mean" offers,
// its rules are the checks, each refused with the class it declares, in the declaration's order. A
// refusal is data (where, option, rule) and its message is made of that data, one way for every options type.
import { describe, expect, it } from 'vitest';
import {
  AS_GIVEN,
  type BaasOptionError,
  checkOptionValues,
  checkOptions,
  isBaasOptionError,
  must,
  optionError,
  optionMessage,
  type OptionRules,
  within,
} from '../../src/option-rules.js';

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
      return wrong < 0 ? undefined : { at: `[${wrong}]`, rule: 'must be a string' };
    },
    error: TypeError,
  },
  hook: AS_GIVEN,
};

const refusal = (run: () => void): BaasOptionError => {
  try {
    run();
  } catch (error) {
    expect(isBaasOptionError(error)).toBe(true);
    return error as BaasOptionError;
  }
  throw new Error('accepted');
};

/** The parts of a refusal, as a program reads them. */
const parts = ({ where, option, rule }: BaasOptionError) => ({ where, option, rule });

describe('checkOptions', () => {
  it('refuses a misspelt name with the one the declaration holds, before any value', () => {
    const error = refusal(() => checkOptions('make', { name: 'x', cuont: 0 } as never, RULES));
    expect(error).toBeInstanceOf(TypeError);
    expect(parts(error)).toEqual({ where: 'make', option: 'cuont', rule: 'is not an option; did you mean count?' });
    expect(error.message).toBe('make: cuont is not an option; did you mean count?');
    const alias = refusal(() =>
      checkOptions('make', { name: 'x', size: 2 } as never, RULES, { aliases: { size: 'count' } }),
    );
    expect(alias.message).toBe('make: size is not an option; did you mean count?');
  });

  it('closed: refuses any member it does not name (not undefined), listing the names, a near one first', () => {
    const far = refusal(() => checkOptions('make', { name: 'x', strict: false } as never, RULES, { closed: true }));
    expect(parts(far)).toEqual({
      where: 'make',
      option: 'strict',
      rule: 'is not an option (known: count, name, tags, hook)',
    });
    const near = refusal(() =>
      checkOptions({ path: 'make' }, { name: 'x', hooks: 1 } as never, RULES, { closed: true }),
    );
    expect(near.message).toBe('make.hooks is not an option; did you mean hook? (known: count, name, tags, hook)');
    expect(() =>
      checkOptions('make', { name: 'x', strict: undefined } as never, RULES, { closed: true }),
    ).not.toThrow();
  });

  it("refuses a value with the rule's class, the option and the rule as data, and the message made of them", () => {
    const range = refusal(() => checkOptions('make', { name: 'x', count: 0 }, RULES));
    expect(range).toBeInstanceOf(RangeError);
    expect(parts(range)).toEqual({ where: 'make', option: 'count', rule: 'must be a whole number of at least 1' });
    expect(range.message).toBe('make: count must be a whole number of at least 1');
    const item = refusal(() => checkOptions('make', { name: 'x', tags: ['a', 2 as never] }, RULES));
    expect(item).toBeInstanceOf(TypeError);
    expect(parts(item)).toEqual({ where: 'make', option: 'tags[1]', rule: 'must be a string' });
    expect(item.message).toBe('make: tags[1] must be a string');
  });

  it('names a nested options object by its path, with or without the function that took it', () => {
    const nested = refusal(() => checkOptions({ where: 'make', path: 'inner' }, { name: 'x', count: 0 }, RULES));
    expect(parts(nested)).toEqual({
      where: 'make',
      option: 'inner.count',
      rule: 'must be a whole number of at least 1',
    });
    expect(nested.message).toBe('make: inner.count must be a whole number of at least 1');
    const bare = refusal(() => checkOptions({ path: 'inner' }, { name: '' }, RULES));
    expect(bare.where).toBeUndefined();
    expect(bare.message).toBe('inner.name is required');
  });

  it('checks a missing option only when its rule is required, and the first broken rule in order', () => {
    expect(refusal(() => checkOptions('make', {} as Options, RULES)).message).toBe('make: name is required');
    expect(refusal(() => checkOptions('make', { count: 0, name: '' }, RULES)).option).toBe('count');
    expect(() => checkOptions('make', { name: 'x', hook: 'anything' as never }, RULES)).not.toThrow();
  });

  it('refuses members far from every name too (listing the names), and checkOptionValues never looks at names', () => {
    expect(parts(refusal(() => checkOptions('make', { name: 'x', unrelatedMember: 1 } as never, RULES)))).toEqual({
      where: 'make',
      option: 'unrelatedMember',
      rule: 'is not an option (known: count, name, tags, hook)',
    });
    // A prefix of a name is one meant: `log` for logger.
    expect(refusal(() => checkOptions('make', { name: 'x', hoo: 1 } as never, RULES)).rule).toBe(
      'is not an option; did you mean hook?',
    );
    expect(() => checkOptions('make', { name: 'x', unrelatedMember: undefined } as never, RULES)).not.toThrow();
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

describe('optionError, the one factory', () => {
  it('makes the message of the parts, quoting a name that is not a plain path', () => {
    expect(optionMessage({ where: 'make', option: 'retry.maxAttempts', rule: 'is wrong' })).toBe(
      'make: retry.maxAttempts is wrong',
    );
    expect(optionMessage({ option: 'ca[0]', rule: 'is wrong' })).toBe('ca[0] is wrong');
    expect(optionMessage({ where: 'make', option: 'time out', rule: 'is wrong' })).toBe('make: "time out" is wrong');
  });

  it('keeps the class asked for, and isBaasOptionError knows its errors by their fields', () => {
    const error = optionError({ where: 'make', option: 'count', rule: 'is wrong' }, RangeError);
    expect(error).toBeInstanceOf(RangeError);
    expect(error.name).toBe('RangeError');
    expect(isBaasOptionError(error)).toBe(true);
    expect(isBaasOptionError(new TypeError('make: count is wrong'))).toBe(false);
    expect(isBaasOptionError(Object.assign(new Error('x'), { option: 'a', rule: 'b' }))).toBe(false);
    expect(isBaasOptionError(undefined)).toBe(false);
  });
});
