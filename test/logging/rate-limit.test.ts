// The rate-limit header fields the contract documents (IETF RateLimit / RateLimit-Policy), and the
// common X-RateLimit-* variant the client tolerates.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseStructuredList } from '../../src/logging/rate-limit.js';
import { spec, deref } from '../support/spec.js';

const headers = (init: Record<string, string>) => new Headers(init);

describe('parseRateLimit', () => {
  it('reads the IETF fields, joining RateLimit to its policy', () => {
    expect(
      parseRateLimit(headers({ RateLimit: '"default";r=49;t=42', 'RateLimit-Policy': '"default";q=100;w=60' })),
    ).toEqual({
      source: 'ietf',
      policy: 'default',
      limit: 100,
      remaining: 49,
      resetSeconds: 42,
      windowSeconds: 60,
    });
  });

  it("reads the spec's own header examples", () => {
    const rateLimit = deref<{ example: string }>(spec.components.headers!.RateLimit).example;
    const policy = deref<{ example: string }>(spec.components.headers!.RateLimitPolicy).example;
    expect(parseRateLimit(headers({ RateLimit: rateLimit, 'RateLimit-Policy': policy }))).toMatchObject({
      source: 'ietf',
      remaining: 49,
      limit: 100,
    });
  });

  it('with several policies, reports the one closest to running out', () => {
    const info = parseRateLimit(
      headers({
        RateLimit: '"burst";r=80;t=1, "daily";r=3;t=3600',
        'RateLimit-Policy': '"burst";q=100;w=1, "daily";q=1000;w=86400',
      }),
    );
    expect(info).toStrictEqual({
      source: 'ietf',
      policy: 'daily',
      limit: 1000,
      remaining: 3,
      resetSeconds: 3600,
      windowSeconds: 86400,
    });
  });

  it('accepts a token policy name and a RateLimit without policy field', () => {
    expect(parseRateLimit(headers({ RateLimit: 'default;r=0;t=5' }))).toStrictEqual({
      source: 'ietf',
      policy: 'default',
      remaining: 0,
      resetSeconds: 5,
    });
  });

  it('reads X-RateLimit-* with a delta reset', () => {
    expect(
      parseRateLimit(headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '30' })),
    ).toEqual({
      source: 'separate-fields',
      limit: 60,
      remaining: 0,
      resetSeconds: 30,
    });
  });

  it('turns an epoch X-RateLimit-Reset (GitHub style) into seconds from now', () => {
    const now = 1_800_000_000_000;
    expect(
      parseRateLimit(headers({ 'X-RateLimit-Remaining': '5', 'X-RateLimit-Reset': String(now / 1000 + 90) }), now),
    ).toStrictEqual({
      source: 'separate-fields',
      remaining: 5,
      resetSeconds: 90,
    });
  });

  it("reads the draft's older RateLimit-Limit/-Remaining/-Reset", () => {
    expect(
      parseRateLimit(headers({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '9', 'RateLimit-Reset': '7' })),
    ).toMatchObject({ limit: 10, remaining: 9, resetSeconds: 7 });
  });

  it.each([
    ['no fields', {}],
    ['an empty RateLimit', { RateLimit: '' }],
    ['values that are not non-negative integers', { RateLimit: '"default";r=-1;t=abc' }],
    ['a word for a limit', { 'X-RateLimit-Limit': 'lots' }],
    ['a field over 4 kB', { RateLimit: `"x";r=1;t=1${', "y";r=2;t=2'.repeat(400)}` }],
  ])('reports nothing for %s', (_name, init) => {
    expect(parseRateLimit(headers(init as Record<string, string>))).toBeUndefined();
  });

  it.each([
    [
      'a quoted count with spaces around it',
      { RateLimit: 'default;r=" 7 "' },
      { source: 'ietf', policy: 'default', remaining: 7 },
    ],
    ['a bare count after a space: nothing', { RateLimit: 'default;r= 7;t=1' }, undefined],
    [
      'counts with letters before or after the digits',
      { 'X-RateLimit-Limit': '5x', 'X-RateLimit-Remaining': 'x5', 'X-RateLimit-Reset': '9' },
      { source: 'separate-fields', resetSeconds: 9 },
    ],
    [
      'a count of 15 digits, not 16',
      { 'X-RateLimit-Limit': '999999999999999', 'X-RateLimit-Remaining': '1000000000000000' },
      { source: 'separate-fields', limit: 999999999999999 },
    ],
    ['only the remaining count', { RateLimit: '"p";r=3' }, { source: 'ietf', policy: 'p', remaining: 3 }],
    ['only the reset', { RateLimit: '"p";t=9' }, { source: 'ietf', policy: 'p', resetSeconds: 9 }],
    ['no policy name', { RateLimit: ';r=2;t=4' }, { source: 'ietf', remaining: 2, resetSeconds: 4 }],
    [
      'a member with neither count, beside one with both',
      { RateLimit: '"a";q=5, "b";r=1;t=2' },
      { source: 'ietf', policy: 'b', remaining: 1, resetSeconds: 2 },
    ],
    [
      'a policy without remaining loses to one with it',
      { RateLimit: '"a";t=2, "b";r=50;t=9' },
      { source: 'ietf', policy: 'b', remaining: 50, resetSeconds: 9 },
    ],
    [
      'two policies as tight as each other: the first',
      { RateLimit: '"a";r=1;t=2, "b";r=1;t=9' },
      { source: 'ietf', policy: 'a', remaining: 1, resetSeconds: 2 },
    ],
    [
      'the only policy described, whatever its name',
      { RateLimit: '"a";r=1;t=2', 'RateLimit-Policy': '"other";q=10;w=5' },
      { source: 'ietf', policy: 'a', limit: 10, remaining: 1, resetSeconds: 2, windowSeconds: 5 },
    ],
    [
      'no match among several policies',
      { RateLimit: '"a";r=1;t=2', 'RateLimit-Policy': '"b";q=10;w=5, "c";q=20;w=6' },
      { source: 'ietf', policy: 'a', remaining: 1, resetSeconds: 2 },
    ],
    [
      'an unreadable RateLimit, then X-RateLimit-*',
      { RateLimit: '"a";q=5', 'X-RateLimit-Remaining': '4' },
      { source: 'separate-fields', remaining: 4 },
    ],
    [
      'RateLimit before X-RateLimit-*',
      { RateLimit: '"a";r=1', 'X-RateLimit-Remaining': '4' },
      { source: 'ietf', policy: 'a', remaining: 1 },
    ],
    [
      'X-RateLimit-* before RateLimit-*',
      { 'X-RateLimit-Limit': '5', 'RateLimit-Remaining': '4' },
      { source: 'separate-fields', limit: 5 },
    ],
    [
      'X-Rate-Limit-*',
      { 'X-Rate-Limit-Limit': '5', 'X-Rate-Limit-Remaining': '4', 'X-Rate-Limit-Reset': '3' },
      { source: 'separate-fields', limit: 5, remaining: 4, resetSeconds: 3 },
    ],
    ['only a reset', { 'RateLimit-Reset': '12' }, { source: 'separate-fields', resetSeconds: 12 }],
    [
      'a reset of exactly 1,000,000,000 s: still seconds',
      { 'X-RateLimit-Reset': '1000000000' },
      { source: 'separate-fields', resetSeconds: 1_000_000_000 },
    ],
  ])('%s', (_name, init, expected) => {
    // Strict: a field that came out undefined is left out, not present as undefined.
    expect(parseRateLimit(headers(init as Record<string, string>), 1_800_000_000_000)).toStrictEqual(expected);
  });

  it('an epoch reset already past is 0 seconds; a fraction of a second left is a whole one', () => {
    expect(parseRateLimit(headers({ 'X-RateLimit-Reset': '1799999990' }), 1_800_000_000_000)).toStrictEqual({
      source: 'separate-fields',
      resetSeconds: 0,
    });
    expect(parseRateLimit(headers({ 'X-RateLimit-Reset': '1800000001' }), 1_800_000_000_400)).toStrictEqual({
      source: 'separate-fields',
      resetSeconds: 1,
    });
  });

  it('an epoch reset counts from the clock when none is given', () => {
    const info = parseRateLimit(headers({ 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 3600) }));
    expect(info?.resetSeconds).toBeGreaterThan(3500);
    expect(info?.resetSeconds).toBeLessThanOrEqual(3601);
  });

  test.prop([fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 })])(
    'never throws and yields only non-negative integers',
    (a, b) => {
      let info: ReturnType<typeof parseRateLimit>;
      try {
        info = parseRateLimit({ get: (name) => (name === 'ratelimit' ? a : name === 'ratelimit-policy' ? b : null) });
      } catch (error) {
        expect.fail(`threw ${String(error)}`);
      }
      for (const key of ['limit', 'remaining', 'resetSeconds', 'windowSeconds'] as const) {
        const value = info?.[key];
        if (value !== undefined) expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
      }
    },
  );
});

describe('parseStructuredList', () => {
  it.each([
    [
      'spaces and tabs around members and parameters',
      ' \t"a";r=1 ,\tb;t=2',
      [
        ['a', { r: '1' }],
        ['b', { t: '2' }],
      ],
    ],
    ['an unterminated string, to the end', '"abc', [['abc', {}]]],
    ['a string ending in a lone backslash', '"a\\', [['a', {}]]],
    ['a quoted parameter value', 'a;r="5"', [['a', { r: '5' }]]],
    ['parameter keys of lower-case letters, digits and _-.*', 'a;*k.-_9=v', [['a', { '*k.-_9': 'v' }]]],
    ['an upper-case key: nothing of it is read, nor after it', 'a;R=1;t=2', [['a', { '': true }]]],
    ['a tab before the parameters', 'a\t;r=1', [['a', { r: '1' }]]],
    ['a space between parameters', 'a;r=1 ;t=2', [['a', { r: '1', t: '2' }]]],
    ['a boolean parameter at the end', 'a;flag', [['a', { flag: true }]]],
    ['a space before "=": a boolean parameter', 'a ; r = 1', [['a', { r: true }]]],
    ['parameters without a value', ';r=1', [['', { r: '1' }]]],
    ['empty members, skipped', ', ,a', [['a', {}]]],
    [
      'tokens split at a comma',
      'a,b',
      [
        ['a', {}],
        ['b', {}],
      ],
    ],
    [
      'junk after a member, up to the next comma',
      'x y;r=1, z',
      [
        ['x', {}],
        ['z', {}],
      ],
    ],
    ['junk after a string', '"a"b;r=2', [['a', {}]]],
  ])('%s', (_name, field, expected) => {
    expect(parseStructuredList(field).map((i) => [i.value, Object.fromEntries(i.params)])).toEqual(expected);
  });

  it('reads a field of 4096 characters and ignores a longer one', () => {
    const field = (length: number) => `a;r=1${' '.repeat(length - 5)}`;
    expect(parseStructuredList(field(4096))).toHaveLength(1);
    expect(parseStructuredList(field(4097))).toEqual([]);
  });

  it('reads strings with escapes, tokens and boolean parameters', () => {
    const items = parseStructuredList('"a\\"b";r=1;flag, tok;t=2');
    expect(items.map((i) => [i.value, Object.fromEntries(i.params)])).toEqual([
      ['a"b', { r: '1', flag: true }],
      ['tok', { t: '2' }],
    ]);
  });
});
