// The rate-limit header fields the contract documents (IETF RateLimit / RateLimit-Policy), and the
// common X-RateLimit-* variant the client tolerates.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseStructuredList } from '../../src/logging/index.js';
import { spec, deref } from '../support/spec.js';

const headers = (init: Record<string, string>) => new Headers(init);

describe('parseRateLimit', () => {
  it('reads the IETF fields, joining RateLimit to its policy', () => {
    expect(parseRateLimit(headers({ RateLimit: '"default";r=49;t=42', 'RateLimit-Policy': '"default";q=100;w=60' }))).toEqual({
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
    expect(parseRateLimit(headers({ RateLimit: rateLimit, 'RateLimit-Policy': policy }))).toMatchObject({ source: 'ietf', remaining: 49, limit: 100 });
  });

  it('with several policies, reports the one closest to running out', () => {
    const info = parseRateLimit(headers({ RateLimit: '"burst";r=80;t=1, "daily";r=3;t=3600', 'RateLimit-Policy': '"burst";q=100;w=1, "daily";q=1000;w=86400' }));
    expect(info).toEqual({ source: 'ietf', policy: 'daily', limit: 1000, remaining: 3, resetSeconds: 3600, windowSeconds: 86400 });
  });

  it('accepts a token policy name and a RateLimit without policy field', () => {
    expect(parseRateLimit(headers({ RateLimit: 'default;r=0;t=5' }))).toEqual({ source: 'ietf', policy: 'default', remaining: 0, resetSeconds: 5 });
  });

  it('reads X-RateLimit-* with a delta reset', () => {
    expect(parseRateLimit(headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '30' }))).toEqual({
      source: 'separate-fields',
      limit: 60,
      remaining: 0,
      resetSeconds: 30,
    });
  });

  it('turns an epoch X-RateLimit-Reset (GitHub style) into seconds from now', () => {
    const now = 1_800_000_000_000;
    expect(parseRateLimit(headers({ 'X-RateLimit-Remaining': '5', 'X-RateLimit-Reset': String(now / 1000 + 90) }), now)).toEqual({
      source: 'separate-fields',
      remaining: 5,
      resetSeconds: 90,
    });
  });

  it("reads the draft's older RateLimit-Limit/-Remaining/-Reset", () => {
    expect(parseRateLimit(headers({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '9', 'RateLimit-Reset': '7' }))).toMatchObject({ limit: 10, remaining: 9, resetSeconds: 7 });
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

  test.prop([fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 })])('never throws and yields only non-negative integers', (a, b) => {
    let info;
    try {
      info = parseRateLimit({ get: (name) => (name === 'ratelimit' ? a : name === 'ratelimit-policy' ? b : null) });
    } catch (error) {
      expect.fail(`threw ${String(error)}`);
    }
    for (const key of ['limit', 'remaining', 'resetSeconds', 'windowSeconds'] as const) {
      const value = info?.[key];
      if (value !== undefined) expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
    }
  });
});

describe('parseStructuredList', () => {
  it('reads strings with escapes, tokens and boolean parameters', () => {
    const items = parseStructuredList('"a\\"b";r=1;flag, tok;t=2');
    expect(items.map((i) => [i.value, Object.fromEntries(i.params)])).toEqual([
      ['a"b', { r: '1', flag: true }],
      ['tok', { t: '2' }],
    ]);
  });
});
