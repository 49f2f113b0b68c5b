// The edges of the one options-mistake factory and the unknown-member rule (src/option-rules.ts), each
// pinned: which paths read plain, the fields' shape, what counts as an options mistake, which member
// names a refusal may show (a name as programs write one; anything else may be data), and aliases
// naming the option meant even for a member given as undefined.
import { describe, expect, it } from 'vitest';
import {
  AS_GIVEN,
  checkOptions,
  isBaasOptionError,
  isRecord,
  optionError,
  optionMessage,
} from '../../src/option-rules.js';

const refusal = (run: () => void): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it was not refused');
};

describe('optionMessage', () => {
  it('writes a path of names and indexes as it is, any other name quoted', () => {
    expect(optionMessage({ where: 'w', option: 'tls.ca[12]', rule: 'r' })).toBe('w: tls.ca[12] r');
    expect(optionMessage({ option: 'retry.maxAttempts', rule: 'r' })).toBe('retry.maxAttempts r');
    expect(optionMessage({ option: 'a b', rule: 'r' })).toBe('"a b" r');
    expect(optionMessage({ option: 'ca[x]', rule: 'r' })).toBe('"ca[x]" r');
  });
});

describe('optionError', () => {
  it("makes its parts fields that are read by name: not enumerable, not writable, configurable as an error's own", () => {
    const error = optionError({ where: 'createBaasClient', option: 'timeoutMs', rule: 'must be a number' });
    for (const field of ['where', 'option', 'rule'])
      expect(Object.getOwnPropertyDescriptor(error, field), field).toMatchObject({
        enumerable: false,
        writable: false,
        configurable: true,
      });
    expect(error.option).toBe('timeoutMs');
  });
});

describe('isBaasOptionError', () => {
  it('needs a TypeError or RangeError with both its option and its rule', () => {
    expect(isBaasOptionError(optionError({ option: 'a', rule: 'r' }))).toBe(true);
    expect(isBaasOptionError(optionError({ option: 'a', rule: 'r' }, RangeError))).toBe(true);
    expect(isBaasOptionError(Object.assign(new TypeError('x'), { option: 'a' }))).toBe(false);
    expect(isBaasOptionError(Object.assign(new TypeError('x'), { rule: 'r' }))).toBe(false);
    expect(isBaasOptionError(Object.assign(new Error('x'), { option: 'a', rule: 'r' }))).toBe(false);
  });
});

describe('isRecord', () => {
  it('is an object of its own members: not null, not a list', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
    expect(isRecord('x')).toBe(false);
  });
});

describe('checkOptions refuses a member it does not name', () => {
  const rules = { baseUrl: AS_GIVEN, token: AS_GIVEN };

  it('showing a name as programs write one, up to 64 characters', () => {
    const name = `a${'b'.repeat(63)}`;
    expect(refusal(() => checkOptions('f', { [name]: 1 }, rules as never)).message).toBe(
      `f: ${name} is not an option (known: baseUrl, token)`,
    );
  });

  it.each(['529.982.247-25', '1abc', 'x-1', ` padded`, `a${'b'.repeat(64)}`])(
    'never showing %j, which is no name (it may be data)',
    (name) => {
      const error = refusal(() => checkOptions('f', { [name]: 1 }, rules as never));
      expect(error.message).toBe(
        'f: options has a member whose name is not an option, nor a name (not shown: it may be data); give only options (known: baseUrl, token)',
      );
      expect(error.message).not.toContain(name.trim());
    },
  );

  it('showing a name near an option as the caller wrote it, even one that is not a program name', () => {
    // A kebab-case spelling from a config file is a mistake of spelling, not data.
    expect(refusal(() => checkOptions('f', { 'base-url': 1 }, rules as never)).message).toBe(
      'f: "base-url" is not an option; did you mean baseUrl?',
    );
  });

  it('naming the option an alias means, even for a member given as undefined', () => {
    const aliased = { readyTimeoutMs: AS_GIVEN };
    const unknown = { aliases: { timeoutMs: 'readyTimeoutMs' } };
    expect(refusal(() => checkOptions('startMock', { timeoutMs: undefined }, aliased as never, unknown)).message).toBe(
      'startMock: timeoutMs is not an option; did you mean readyTimeoutMs?',
    );
  });
});
