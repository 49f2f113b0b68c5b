// createBaasClient refuses a configuration that would fail or leak later.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../src/version.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

describe('options', () => {
  it.each([
    ['not a URL', 'api.baas.example'],
    ['another protocol', 'ftp://api.baas.example'],
    ['credentials in the URL', 'https://user:pw@api.baas.example'],
  ])('rejects a baseUrl that is %s', (_why, baseUrl) => {
    expect(() => createBaasClient({ baseUrl, token: 't' })).toThrow(/baseUrl/);
  });

  it('rejects plain http to a remote host unless allowed', () => {
    expect(() => createBaasClient({ baseUrl: 'http://api.baas.example', token: 't' })).toThrow(
      /plain http.*allowInsecureHttp/,
    );
    expect(() =>
      createBaasClient({ baseUrl: 'http://api.baas.example', token: 't', allowInsecureHttp: true }),
    ).not.toThrow();
    for (const host of ['127.0.0.1:4010', 'localhost', '[::1]:8080']) {
      expect(() => createBaasClient({ baseUrl: `http://${host}`, token: 't' })).not.toThrow();
    }
  });

  it('rejects a missing token and a bad timeout', () => {
    expect(() => createBaasClient({ baseUrl: 'https://a.example', token: '' })).toThrow(/token/);
    expect(() => createBaasClient({ baseUrl: 'https://a.example', token: 't', timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('defaults the User-Agent to package name and version, which match package.json', async () => {
    expect([PACKAGE_NAME, PACKAGE_VERSION]).toEqual([pkg.name, pkg.version]);
    const fetchSpy = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ cursor: { next: null }, data: [] }),
    );
    await createBaasClient({ baseUrl: 'https://a.example/', token: 't0ken-abcdef', fetch: fetchSpy }).listPixKeys();
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(new Headers(init.headers).get('user-agent')).toBe(`${pkg.name}/${pkg.version}`);
    expect(url).toBe('https://a.example/v2/api/pix/keys/list-keys');
  });

  it('awaits an async token function for each request', async () => {
    const token = vi.fn(async () => 'refreshed-token');
    const fetchSpy = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ cursor: { next: null }, data: [] }),
    );
    const client = createBaasClient({ baseUrl: 'https://a.example', token, fetch: fetchSpy });
    await client.listPixKeys();
    await client.listPixKeys();
    expect(token).toHaveBeenCalledTimes(2);
    expect(new Headers(fetchSpy.mock.calls[1]![1].headers).get('authorization')).toBe('Bearer refreshed-token');
  });
});
