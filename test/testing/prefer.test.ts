// The Prefer helpers: the exact header text, refusals of values that would ask Prism for something
// else, and proof against the run's mock that Prism reads the header the way it is built.
import { describe, expect, it } from 'vitest';
import { preferHeader, preferHeaders } from '../../src/testing/prefer.js';
import { mockUrl } from '../support/mock.js';
import { exampleValue } from '../support/fixtures.js';

describe('preferHeader', () => {
  it.each([
    [{ code: 429 }, 'code=429'],
    [{ example: 'LastPage' }, 'example=LastPage'],
    [{ dynamic: true }, 'dynamic=true'],
    [{ dynamic: false }, 'dynamic=false'],
    [{ dynamic: true, example: 'NoKeys', code: 200 }, 'code=200, example=NoKeys, dynamic=true'],
  ])('%o -> %s', (preference, header) => {
    expect(preferHeader(preference)).toBe(header);
    expect(preferHeaders(preference)).toEqual({ Prefer: header });
  });

  it('needs at least one preference', () => {
    expect(() => preferHeader({})).toThrow(
      new TypeError('preferHeader: preference needs at least one of code, example or dynamic, e.g. { code: 429 }'),
    );
  });

  it.each([100, 599])('takes code %s, the ends of the range', (code) => {
    expect(preferHeader({ code })).toBe(`code=${code}`);
  });

  it.each([99, 600, 42.5, Number.NaN])('refuses code %s', (code) => {
    expect(() => preferHeader({ code })).toThrow(new RangeError('preferHeader: code must be an HTTP status (100-599)'));
  });

  it.each([
    '',
    'Last Page',
    'LastPage, code=500',
    'a=b',
    'Last,Page',
    'NoKeys\r\nX-Injected: 1',
    ' LastPage',
    'LastPage\t',
  ])('refuses example %j', (example) => {
    expect(() => preferHeader({ example })).toThrow(
      new RangeError(`preferHeader: example must be an example's name, without spaces, commas or "="`),
    );
  });
});

describe('preferHeaders against the mock', () => {
  const list = (preference: Parameters<typeof preferHeaders>[0]) =>
    fetch(`${mockUrl()}/v2/api/pix/keys/list-keys`, {
      headers: {
        Authorization: 'Bearer prefer-test',
        'User-Agent': 'prefer-tests/1.0',
        Accept: 'application/json, application/problem+json',
        ...preferHeaders(preference),
      },
    });

  it('an example picks that example', async () => {
    const response = await list({ example: 'LastPage' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(exampleValue('LastPage'));
  });

  it('a code picks that documented response', async () => {
    const response = await list({ code: 503 });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
  });

  it('code and example together pick that example of that response', async () => {
    const response = await list({ code: 429, example: 'RateLimited' });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual(exampleValue('RateLimited'));
  });
});
