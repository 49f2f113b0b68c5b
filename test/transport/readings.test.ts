// The transport's readings on their own: why a redirect was not followed (unfollowedRedirect), the
// one Retry-After reading at its edges (its length bound among them), and how deep a failure's cause chain is read.
import { describe, expect, it } from 'vitest';
import { failureOf } from '../../src/transport/failure.js';
import { isRedirect, unfollowedRedirect } from '../../src/transport/redirect.js';
import { MAX_RETRY_AFTER_CHARS, parseRetryAfter } from '../../src/transport/retry-after.js';

const FROM = 'https://api.example/v2/items';
const redirect = (status: number, location?: string) =>
  new Response(null, { status, headers: location === undefined ? {} : { location } });

describe('unfollowedRedirect: why the rule handed a 3xx back', () => {
  it.each([
    [
      'another origin, for a read',
      302,
      'https://elsewhere.example/x',
      'GET',
      'other-origin',
      'https://elsewhere.example',
    ],
    [
      'another origin, for a HEAD',
      307,
      'https://elsewhere.example/x',
      'HEAD',
      'other-origin',
      'https://elsewhere.example',
    ],
    ['a write, even to the same origin', 303, '/v2/next', 'PUT', 'not-a-read', 'https://api.example'],
    [
      'the same origin for a read: only too many hops leave it',
      301,
      '/v2/next',
      'GET',
      'too-many',
      'https://api.example',
    ],
    ['no Location', 302, undefined, 'GET', 'no-location', undefined],
    ['a Location that is no URL', 302, 'http://[', 'GET', 'no-location', undefined],
    ['an opaque origin (data:) named as none', 302, 'data:text/plain,x', 'GET', 'other-origin', undefined],
  ] as const)('%s', (_name, status, location, method, reason, targetOrigin) => {
    expect(unfollowedRedirect(redirect(status, location), FROM, method)).toEqual({ reason, targetOrigin });
  });

  it('an answer that is no redirect is none', () => {
    for (const status of [200, 304, 300, 400])
      expect(unfollowedRedirect(redirect(status, '/x'), FROM, 'GET')).toBe(undefined);
    expect(isRedirect(redirect(200))).toBe(false);
    expect(isRedirect(redirect(308, '/x'))).toBe(true);
  });
});

describe('parseRetryAfter at its edges', () => {
  it.each([
    [undefined, undefined],
    ['120.5', 120_500],
    ['0.25', 250],
    ['7.0001', 7_001],
    ['7.000', 7_000],
  ])('%j → %j ms', (value, ms) => {
    expect(parseRetryAfter(value, 0)).toBe(ms);
  });

  it(`reads a value of at most ${MAX_RETRY_AFTER_CHARS} characters; a longer delay is longer than any ceiling`, () => {
    const padded = (text: string, length: number) => text.padStart(length, ' ');
    expect(parseRetryAfter(padded('120', MAX_RETRY_AFTER_CHARS), 0)).toBe(120_000);
    expect(parseRetryAfter(padded('120', MAX_RETRY_AFTER_CHARS + 1), 0)).toBe(Number.POSITIVE_INFINITY);
    expect(parseRetryAfter('9'.repeat(MAX_RETRY_AFTER_CHARS), 0)).toBeGreaterThan(0);
    // Digits past the bound ask for more than any caller waits: refused as too long a wait, never
    // dropped (which would retry at once, sooner than the server asked).
    expect(parseRetryAfter('9'.repeat(MAX_RETRY_AFTER_CHARS + 1), 0)).toBe(Number.POSITIVE_INFINITY);
    expect(parseRetryAfter('1'.repeat(1024 * 1024), 0)).toBe(Number.POSITIVE_INFINITY);
    // Anything else past the bound is unreadable.
    expect(parseRetryAfter(`Wed, ${'x'.repeat(MAX_RETRY_AFTER_CHARS)}`, 0)).toBe(undefined);
    // The longest HTTP date, rfc850's, is read.
    const date = 'Wednesday, 25-Nov-26 12:00:30 GMT';
    expect(parseRetryAfter(date, Date.parse('2026-11-25T12:00:00Z'))).toBe(30_000);
  });
});

describe('the cause chain of a network failure', () => {
  /** An error whose cause chain is `depth` errors deep, the last with `fields`. */
  const chain = (depth: number, fields: Record<string, unknown>): Error => {
    let error: Error = Object.assign(new Error(`level ${depth}`), fields);
    for (let level = depth - 1; level >= 0; level -= 1) error = new Error(`level ${level}`, { cause: error });
    return error;
  };

  it('is read five levels deep for the code and the TLS reason, no deeper', () => {
    const tls = { code: 'ERR_TLS_CERT_ALTNAME_INVALID', reason: 'the name does not match' };
    expect(failureOf(chain(4, tls), undefined)).toMatchObject({ kind: 'network', ...tls });
    expect(failureOf(chain(5, tls), undefined)).toMatchObject({ kind: 'network', code: undefined, reason: undefined });
  });

  it('takes a reason only beside a code', () => {
    expect(failureOf(chain(0, { reason: 'no code beside it' }), undefined)).toMatchObject({ reason: undefined });
    expect(failureOf(chain(0, { code: 'EPROTO', reason: 42 }), undefined)).toMatchObject({
      code: 'EPROTO',
      reason: undefined,
    });
    expect(failureOf(chain(0, { code: 'ECONNRESET' }), undefined)).toMatchObject({
      code: 'ECONNRESET',
      reason: undefined,
    });
  });
});
