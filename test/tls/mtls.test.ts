// Mutual TLS against a real local HTTPS server that requires a client certificate, with a CA and
// certificates made by openssl for this run. The right certificate works; none, one from an unknown
// CA and an expired one each fail fast with an error naming the TLS problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as undici from 'undici';
import { createTlsFetch, type TlsFetch } from '../../src/tls/fetch.js';
import { fromUrlInitFetch, type UrlInitFetch } from '../../src/tls/adapt.js';
import { lazyTlsFetch } from '../../src/tls/lazy.js';
import { tlsFailure, TlsConnectionError } from '../../src/tls/failure.js';
import type { TlsOptions } from '../../src/tls/options.js';
import { makeTestCerts, type TestCerts } from '../support/certs.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';

let certs: TestCerts;
let mtls: TestHttpsServer;
let plainTls: TestHttpsServer;
const opened: TlsFetch[] = [];

beforeAll(async () => {
  certs = await makeTestCerts();
  mtls = await startHttpsServer({ ...certs.server, ca: certs.ca, requireClientCert: true });
  plainTls = await startHttpsServer({ ...certs.server, ca: certs.ca, requireClientCert: false });
});
afterAll(async () => {
  await Promise.allSettled(opened.map((f) => f.close()));
  await Promise.allSettled([mtls?.close(), plainTls?.close()]);
  await certs?.remove();
});

async function tlsFetch(tls: TlsOptions, fetch?: UrlInitFetch): Promise<TlsFetch> {
  const f = await createTlsFetch(tls, fetch ? { fetch } : {});
  opened.push(f);
  return f;
}

// A bounded wait: a hang would surface as a BaasTimeoutError, which no expectation below accepts.
// Called as the client calls a fetch: fetch(url, init).
const get = (url: string, init: RequestInit = {}): [string, RequestInit] => [
  url,
  { ...init, signal: AbortSignal.timeout(10_000) },
];

/** Every secret a TLS error must not show: key bodies and the passphrase. */
function expectNoSecrets(error: unknown): void {
  const seen: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 8; depth += 1) {
    seen.push(String(current), JSON.stringify(current, Object.getOwnPropertyNames(current)) ?? '');
    current = (current as { cause?: unknown }).cause;
  }
  const text = seen.join('\n');
  for (const key of [certs.client.key, certs.unknown.key, certs.expired.key, certs.encryptedKey]) {
    const body = key.split('\n').filter((line) => line && !line.startsWith('-----'));
    for (const line of body) expect(text).not.toContain(line);
  }
  expect(text).not.toContain(certs.passphrase);
}

describe('a client certificate the server accepts', () => {
  it.each([
    ['PEM cert and key', () => ({ cert: certs.client.cert, key: certs.client.key, ca: certs.ca })],
    [
      'PEM cert and encrypted key with passphrase',
      () => ({ cert: certs.client.cert, key: certs.encryptedKey, passphrase: certs.passphrase, ca: certs.ca }),
    ],
    ['PKCS#12 with passphrase', () => ({ pfx: certs.pfx, passphrase: certs.passphrase, ca: certs.ca })],
    [
      'key and cert as bytes',
      () => ({
        cert: new TextEncoder().encode(certs.client.cert),
        key: new TextEncoder().encode(certs.client.key),
        ca: [certs.ca],
      }),
    ],
  ])('%s: the call succeeds and the server sees the certificate', async (_name, tls) => {
    const f = await tlsFetch(tls() as TlsOptions);
    const response = await f(...get(`${mtls.url}/v2/api/pix/keys/list-keys?limit=1`));
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.json()).toMatchObject({
      method: 'GET',
      path: '/v2/api/pix/keys/list-keys?limit=1',
      client: 'client',
    });
  });

  it('sends a PUT body and its headers through', async () => {
    const f = await tlsFetch({ cert: certs.client.cert, key: certs.client.key, ca: certs.ca });
    const body = JSON.stringify({ socialName: 'Maria' });
    const response = await f(
      ...get(`${mtls.url}/put`, { method: 'PUT', body, headers: { 'content-type': 'application/json' } }),
    );
    expect(await response.json()).toMatchObject({ method: 'PUT', body });
  });

  it('{ ca } alone trusts a private authority without presenting a certificate', async () => {
    const f = await tlsFetch({ ca: certs.ca });
    const response = await f(...get(`${plainTls.url}/x`));
    expect(await response.json()).toMatchObject({ client: null });
    // Without it, the global fetch does not trust the server, and the reason can be named.
    const error = await fetch(...get(`${plainTls.url}/x`)).catch((e: unknown) => e);
    expect(tlsFailure(error)?.reason).toMatch(/not trusted|untrusted authority|trusted authority/);
  });
});

describe('a refused or missing client certificate ends in an error naming the TLS problem', () => {
  it.each([
    [
      'no certificate',
      () => ({ ca: certs.ca }),
      /requires a client certificate and none was sent/,
      /CERTIFICATE_REQUIRED/,
    ],
    [
      'a certificate from an unknown CA',
      () => ({ cert: certs.unknown.cert, key: certs.unknown.key, ca: certs.ca }),
      /most likely refused the client certificate \(issued by other-ca\)/,
      /CLIENT_CERT_REFUSED|UNKNOWN_CA|BAD_CERTIFICATE/,
    ],
    [
      'an expired certificate',
      () => ({ cert: certs.expired.cert, key: certs.expired.key, ca: certs.ca }),
      /client certificate expired/,
      /EXPIRED/,
    ],
    [
      'a server certificate from an authority not given as ca',
      () => ({ cert: certs.client.cert, key: certs.client.key }),
      /untrusted authority|not signed by a trusted authority/,
      /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY/,
    ],
  ])('%s', async (_name, tls, reason, code) => {
    const f = await tlsFetch(tls() as TlsOptions);
    const error = await f(...get(`${mtls.url}/x`)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TlsConnectionError);
    const failure = error as TlsConnectionError;
    expect(failure.message).toMatch(/^TLS connection to 127\.0\.0\.1:\d+ failed: /);
    expect(failure.message).toMatch(reason);
    expect(failure.code).toMatch(code);
    // Still a TypeError, as fetch failures are, with the original error kept.
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure.cause).toBeInstanceOf(Error);
    expectNoSecrets(failure);
  });
});

describe('a bad tls option fails when the fetch is made, naming the field, never a value', () => {
  it.each([
    [
      'a wrong passphrase',
      () => ({ cert: certs.client.cert, key: certs.encryptedKey, passphrase: 'not it' }),
      /^tls\.passphrase could not be used/,
    ],
    [
      'a wrong PKCS#12 passphrase',
      () => ({ pfx: certs.pfx, passphrase: 'not it' }),
      /^tls\.passphrase could not be used/,
    ],
    [
      'a key of another certificate',
      () => ({ cert: certs.client.cert, key: certs.unknown.key }),
      /^tls\.key does not belong to tls\.cert: /,
    ],
    [
      'a cert that is not PEM',
      () => ({ cert: 'not a certificate', key: certs.client.key }),
      /^tls\.cert is not PEM text: it must hold a -----BEGIN CERTIFICATE----- block$/,
    ],
    ['cert without key', () => ({ cert: certs.client.cert }), /^tls\.key is required with tls\.cert/],
    [
      'pfx and cert together',
      () => ({ pfx: certs.pfx, cert: certs.client.cert, key: certs.client.key }),
      /either pfx or cert and key/,
    ],
    ['an empty object', () => ({}), /needs a client certificate .* or a ca/],
    [
      'an unknown field',
      () => ({ ca: certs.ca, rejectUnauthorized: false }),
      /tls\.rejectUnauthorized is not an option/,
    ],
    ['an empty ca list', () => ({ ca: [] }), /tls\.ca must not be an empty list/],
    ['a passphrase alone', () => ({ ca: certs.ca, passphrase: 'x' }), /tls\.passphrase needs a key or a pfx/],
  ])('%s', async (_name, tls, message) => {
    const error = await createTlsFetch(tls() as TlsOptions).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expectNoSecrets(error);
  });
});

describe('lazyTlsFetch (what the client and clientCredentials hold)', () => {
  it('checks the type, the shape and the key material at once, and builds the TLS fetch on the first request', async () => {
    expect(() => lazyTlsFetch('a PEM string' as unknown as TlsOptions)).toThrow(/^tls must be an object/);
    expect(() => lazyTlsFetch(null as unknown as TlsOptions, 'clientCredentials.tls')).toThrow(
      /^clientCredentials\.tls must be an object/,
    );
    expect(() =>
      lazyTlsFetch({ pfx: certs.pfx, cert: certs.client.cert, key: certs.client.key } as TlsOptions),
    ).toThrow(/^tls must hold either pfx or cert and key/);
    // The options are taken at creation: a change made afterwards does not reach the request.
    const options: Record<string, unknown> = { cert: certs.client.cert, key: certs.client.key, ca: certs.ca };
    const good = lazyTlsFetch(options as unknown as TlsOptions);
    options.pfx = certs.pfx;
    try {
      expect(await (await good(...get(`${mtls.url}/lazy`))).json()).toMatchObject({ client: 'client' });
    } finally {
      await good.close();
    }
    // The key's material at once too: a passphrase that does not open it is refused before any request.
    expect(() => lazyTlsFetch({ cert: certs.client.cert, key: certs.encryptedKey, passphrase: 'wrong' })).toThrow(
      /^tls\.passphrase could not be used: it does not decrypt tls\.key/,
    );
  });
});

describe('an injected fetch from the undici package', () => {
  it('cannot take the global Request by itself (the ERR_INVALID_URL users hit), so it is called as (url, init)', async () => {
    const direct = await undici.fetch(new Request(`${plainTls.url}/x`) as never).catch((e: unknown) => e);
    expect(String((direct as Error).cause ?? direct)).toMatch(/Invalid URL|ERR_INVALID_URL/);

    const agent = new undici.Agent({ connect: { ca: certs.ca } });
    try {
      const adapted = fromUrlInitFetch(undici.fetch as unknown as UrlInitFetch, { dispatcher: agent });
      const response = await adapted(
        ...get(`${plainTls.url}/adapted`, { method: 'PUT', body: '{"a":1}', headers: { 'x-trace': 't1' } }),
      );
      // The client gets Node's own Response class, which openapi-fetch's middleware requires.
      expect(response).toBeInstanceOf(Response);
      expect(await response.json()).toMatchObject({ method: 'PUT', path: '/adapted', body: '{"a":1}' });
    } finally {
      await agent.close();
    }
  });

  it('carries the client certificate when given to createTlsFetch', async () => {
    const f = await tlsFetch(
      { cert: certs.client.cert, key: certs.client.key, ca: certs.ca },
      undici.fetch as unknown as UrlInitFetch,
    );
    const response = await f(...get(`${mtls.url}/x`));
    expect(await response.json()).toMatchObject({ client: 'client' });
  });
});
