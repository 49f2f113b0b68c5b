// The bearer token never travels in clear: plain http only to this machine's loopback, exactly.
import { describe, expect, it, vi } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { isInsecureRemote } from '../../src/loopback.js';

const create =
  (baseUrl: string, extra: { allowInsecureHttp?: boolean } = {}) =>
  () =>
    createBaasClient({ baseUrl, token: 't0ken-abcdef', ...extra });

describe('plain http', () => {
  it.each([
    'http://localhost',
    'http://LOCALHOST:4010',
    'http://127.0.0.1',
    'http://127.1.2.3:8080',
    'http://127.10.200.1',
    'http://[::1]:4020',
  ])('is allowed to loopback %s', (baseUrl) => {
    expect(create(baseUrl)).not.toThrow();
  });

  it.each([
    ['http://localhost.attacker.example', 'localhost.attacker.example'],
    ['http://attacker.localhost', 'attacker.localhost'],
    ['http://127.0.0.1.attacker.example', '127.0.0.1.attacker.example'],
    ['http://x127.0.0.1.example', 'x127.0.0.1.example'],
    ['http://10.0.0.1', '10.0.0.1'],
    ['http://[::2]', '[::2]'],
  ])('is refused to %s, which only looks local', (baseUrl, host) => {
    expect(create(baseUrl)).toThrow(
      new TypeError(
        `createBaasClient: baseUrl uses plain http to ${host}, which would send the bearer token in clear; use https, or pass allowInsecureHttp: true`,
      ),
    );
  });

  it('is allowed anywhere when the caller opts in', () => {
    expect(create('http://api.baas.example', { allowInsecureHttp: true })).not.toThrow();
  });
});

describe('baseUrl', () => {
  it.each([
    [undefined, 'createBaasClient: baseUrl is required, e.g. "https://sandbox.baas.example"'],
    [
      'api.baas.example',
      'createBaasClient: baseUrl has no scheme: start it with https:// (or http:// for a server on this machine), e.g. "https://sandbox.baas.example"',
    ],
    ['https://', 'createBaasClient: baseUrl must be an absolute http(s) URL, e.g. "https://sandbox.baas.example"'],
    ['ftp://api.baas.example', 'createBaasClient: baseUrl must use https (or http to loopback), not ftp:'],
    ['https://user:pw@api.baas.example', 'createBaasClient: baseUrl must not carry credentials; use the token option'],
    ['https://user@api.baas.example', 'createBaasClient: baseUrl must not carry credentials; use the token option'],
  ])('%j is refused: %s', (baseUrl, message) => {
    expect(create(baseUrl as string)).toThrow(new TypeError(message));
  });

  it('keeps a path prefix (a gateway) and drops trailing slashes', async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ cursor: { next: null }, data: [] }),
    );
    await createBaasClient({ baseUrl: 'https://gw.example/baas///', token: 't0ken-abcdef', fetch }).listPixKeys();
    expect(fetch.mock.calls[0]![0]).toBe('https://gw.example/baas/v2/api/pix/keys/list-keys');
  });
});

// The one rule every sender of a secret asks (src/loopback.ts), by string or by URL alike.
describe('isInsecureRemote', () => {
  it.each([
    ['http://api.baas.example/token', true],
    ['http://127.0.0.1:4010', false],
    ['https://api.baas.example', false],
  ])('%s: %s, as a string and as a URL', (url, insecure) => {
    expect(isInsecureRemote(url)).toBe(insecure);
    expect(isInsecureRemote(new URL(url))).toBe(insecure);
  });

  it('leaves a string that is no URL to its caller (false)', () => {
    expect(isInsecureRemote('api.baas.example')).toBe(false);
    expect(isInsecureRemote('http://')).toBe(false);
  });
});
