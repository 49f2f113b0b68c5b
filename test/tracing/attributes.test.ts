// The pure functions behind a span's attributes: route matching, server, url.full without query
// values, and error.type, including the inputs a call through the client does not reach.
import { describe, expect, it } from 'vitest';
import { errorType, fullUrl, parseUrl, routeOf, routePattern, serverOf } from '../../src/tracing/attributes.js';

const LIST = '/v2/api/pix/keys/list-keys';
const at = (path: string) => new URL(`https://baas.test/prefix${path}`);

describe('routeOf', () => {
  it('gives a known operation its template, with or without a URL', () => {
    expect(routeOf('listPixKeys', 'GET', undefined)).toEqual({ operation: 'listPixKeys', route: LIST });
  });

  it('matches a raw call by method and the end of its path', () => {
    expect(routeOf('raw', 'GET', at(LIST))).toEqual({ operation: 'listPixKeys', route: LIST });
    expect(routeOf('raw', 'POST', at(LIST))).toEqual({ operation: 'raw' });
    expect(routeOf('raw', 'GET', at(`${LIST}/more`))).toEqual({ operation: 'raw' });
    expect(routeOf('raw', 'GET', undefined)).toEqual({ operation: 'raw' });
  });
});

describe('routePattern', () => {
  it('takes a {parameter} as one whole segment and everything else literally', () => {
    const pattern = routePattern('/v1/keys/{keyId}.json');
    expect(pattern.test('/base/v1/keys/abc-12.json')).toBe(true);
    expect(pattern.test('/v1/keys/a.json')).toBe(true);
    expect(pattern.test('/v1/keys/.json')).toBe(false);
    expect(pattern.test('/v1/keys/a/b.json')).toBe(false);
    expect(pattern.test('/v1/keys/abcxjson')).toBe(false);
    expect(pattern.test('/v1/keys/abc.json/x')).toBe(false);
    expect(routePattern('/v1/{a}/{bc}').test('/v1/x/y')).toBe(true);
  });
});

describe('parseUrl', () => {
  it('is undefined for text that is no URL', () => {
    expect(parseUrl('not a url')).toBeUndefined();
    expect(parseUrl('https://baas.test/x')?.pathname).toBe('/x');
  });
});

describe('serverOf', () => {
  it('gives the scheme’s port when the URL names none, and an IPv6 address without brackets', () => {
    expect(serverOf(undefined)).toEqual({});
    expect(serverOf(new URL('http://baas.test/x'))).toEqual({ 'server.address': 'baas.test', 'server.port': 80 });
    expect(serverOf(new URL('https://baas.test/x'))).toEqual({ 'server.address': 'baas.test', 'server.port': 443 });
    expect(serverOf(new URL('http://[::1]:8080/x'))).toEqual({ 'server.address': '::1', 'server.port': 8080 });
  });
});

describe('fullUrl', () => {
  it('keeps the query’s names, never its values, and adds no ? to a URL without a query', () => {
    expect(fullUrl(new URL('https://baas.test/x'), 'ignored')).toBe('https://baas.test/x');
    expect(fullUrl(new URL('https://baas.test/x?a=1&b%20c=2#frag'), 'ignored')).toBe(
      'https://baas.test/x?a=REDACTED&b%20c=REDACTED',
    );
  });

  it('drops query and fragment of a URL it cannot parse', () => {
    expect(fullUrl(undefined, 'bad/x?a=1&b=2')).toBe('bad/x');
    expect(fullUrl(undefined, 'bad/x#a=1')).toBe('bad/x');
    expect(fullUrl(undefined, 'bad/x')).toBe('bad/x');
  });
});

describe('errorType', () => {
  it('is the status of an API error, else the error’s kind', () => {
    expect(errorType({ kind: 'api', status: 404 }, 404)).toBe('404');
    expect(errorType({ kind: 'api' }, undefined)).toBe('api');
    expect(errorType({ kind: 'response', status: 200 }, 200)).toBe('response');
    expect(errorType({ kind: 'timeout', name: 'BaasTimeoutError' }, 503)).toBe('timeout');
  });

  it('is an error answer’s status when there is no error or no kind', () => {
    expect(errorType(undefined, 400)).toBe('400');
    expect(errorType(undefined, 503)).toBe('503');
    expect(errorType({ name: 'AbortError' }, 500)).toBe('500');
  });

  it('is the name of what a call was aborted with when it is a name, else _OTHER', () => {
    expect(errorType(new DOMException('stop', 'AbortError'), undefined)).toBe('AbortError');
    expect(errorType({ name: 'AbortError' }, 399)).toBe('AbortError');
    expect(errorType({ name: 'A' }, undefined)).toBe('A');
    expect(errorType({ name: `A${'b'.repeat(63)}` }, undefined)).toBe(`A${'b'.repeat(63)}`);
    expect(errorType({ name: `A${'b'.repeat(64)}` }, undefined)).toBe('_OTHER');
    expect(errorType({ name: '1Abort' }, undefined)).toBe('_OTHER');
    expect(errorType({ name: 'Abort-x' }, undefined)).toBe('_OTHER');
    expect(errorType({ name: 42 }, undefined)).toBe('_OTHER');
    expect(errorType('stop', undefined)).toBe('_OTHER');
    expect(errorType(undefined, undefined)).toBe('_OTHER');
  });
});
