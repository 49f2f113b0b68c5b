// verify's credential source in process: a token, or client credentials whose token endpoint is an
// injected fetch, and the certificate files. Each misuse is named (option and rule, never a value),
// and every secret is listed for masking.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CredentialError,
  credentialsFrom,
  staticToken,
  tlsFrom,
  type CredentialFlags,
} from '../../src/cli/connection/credentials.js';
import { credentialRefusal as credentialError } from '../support/credential-refusal.js';
import { makeTestCerts, type TestCerts } from '../support/certs.js';

const TOKEN_URL = 'http://127.0.0.1:9/oauth/token';
const SECRET = 'client-secret-0815-never-shown';
const ISSUED = 'issued-token-4711-never-shown';
const PASSPHRASE = 'pass-phrase-never-shown';

let dir: string;
const file = (name: string) => join(dir, name);
// What each file holds: the form of its kind, which `tls` checks at once (a PEM block; DER's first byte,
// 0x30 or '0', for PKCS#12), around contents OpenSSL refuses on the first request.
const contents = (name: string) =>
  name.endsWith('.p12')
    ? `0 contents of ${name}`
    : ((label) => `-----BEGIN ${label}-----\ncontents of ${name}\n-----END ${label}-----\n`)(
        name.endsWith('.key') ? 'PRIVATE KEY' : 'CERTIFICATE',
      );
// Real material too (`tls` checks what a secure context is built from when the source is made): a client
// certificate, its key and a PKCS#12 of them.
let certs: TestCerts;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-credential-source-'));
  for (const name of ['client.crt', 'client.key', 'client.p12', 'ca.crt']) await writeFile(file(name), contents(name));
  certs = await makeTestCerts();
  await writeFile(file('real.crt'), certs.client.cert);
  await writeFile(file('real.key'), certs.client.key);
  await writeFile(file('real.p12'), certs.pfx);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await certs?.remove();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The token endpoint, as the global fetch client credentials use: records each request. */
function tokenEndpoint() {
  const seen: { url: string; authorization: string | null; form: URLSearchParams }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({
      url,
      authorization: new Headers(init.headers).get('authorization'),
      form: new URLSearchParams(String(init.body)),
    });
    return new Response(JSON.stringify({ access_token: ISSUED, token_type: 'Bearer', expires_in: 300 }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return seen;
}

describe('staticToken', () => {
  it('a token: Bearer, listed as a secret; none (or empty): no header, nothing to mask', async () => {
    const source = staticToken('tok-123456');
    expect(await source.authorization()).toBe('Bearer tok-123456');
    expect(source.secretsOf().values()).toEqual(['tok-123456']);
    for (const none of [undefined, '']) {
      const empty = staticToken(none);
      expect(await empty.authorization()).toBeUndefined();
      expect(empty.secretsOf().values()).toEqual([]);
    }
    await expect(source.close()).resolves.toBeUndefined();
  });
});

describe('credentialsFrom: a token', () => {
  it('from --token, else BAAS_TOKEN; no fetch of its own without a certificate', async () => {
    const source = credentialsFrom({ token: 'flag-token-1' }, { BAAS_TOKEN: 'env-token-2' });
    expect(await source.authorization()).toBe('Bearer flag-token-1');
    expect(source.secretsOf().values()).toEqual(['flag-token-1']);
    expect('fetch' in source).toBe(false);
    expect(await credentialsFrom({}, { BAAS_TOKEN: 'env-token-2' }).authorization()).toBe('Bearer env-token-2');
    await source.close();
  });

  it('with a client certificate: its own fetch, and the passphrase listed as a secret', async () => {
    const source = credentialsFrom(
      { token: 'flag-token-1', cert: file('real.crt'), key: file('real.key') },
      { BAAS_TLS_PASSPHRASE: PASSPHRASE },
    );
    expect(source.fetch).toBeTypeOf('function');
    expect(source.secretsOf().values()).toEqual(['flag-token-1', PASSPHRASE]);
    await source.close();
  });

  it('a certificate file that is none is refused when the source is made, naming its flag, never its contents', () => {
    let error: Error | undefined;
    try {
      credentialsFrom({ token: 'flag-token-1', pfx: file('client.p12') }, {});
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.message).toMatch(/^--pfx could not be used: /);
    expect(error?.message).not.toContain('contents of');
  });

  it.each(['scope', 'auth-method'] as const)('--%s with --token: a setting of client credentials, left out', (name) => {
    expect(credentialError({ token: 'tok-123456', [name]: 'x' })).toMatch(/--token, leave them out$/);
  });

  it.each(['token-url', 'client-id', 'client-secret'] as const)(
    '--%s with --token: either one or the other',
    (name) => {
      expect(credentialError({ token: 'tok-123456', [name]: 'x' })).toBe(
        'give either --token or client credentials (--token-url, --client-id), not both',
      );
    },
  );
});

describe('credentialsFrom: client credentials', () => {
  it('asks the token endpoint (client_secret_basic by default, the secret from BAAS_CLIENT_SECRET) and sends its token; every secret listed', async () => {
    const seen = tokenEndpoint();
    const source = credentialsFrom(
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'client-secret': 'flag-secret-ignored' },
      { BAAS_CLIENT_SECRET: SECRET, BAAS_TOKEN: 'env-token-ignored' },
    );
    expect(source.secretsOf().values()).toContain(SECRET);
    expect(source.secretsOf().values()).not.toContain(ISSUED);
    expect(await source.authorization()).toBe(`Bearer ${ISSUED}`);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(TOKEN_URL);
    expect(seen[0]!.authorization).toBe(`Basic ${btoa(`cid:${SECRET}`)}`);
    expect(seen[0]!.form.get('grant_type')).toBe('client_credentials');
    expect(seen[0]!.form.has('scope')).toBe(false);
    expect(source.secretsOf().values()[0]).toBe(SECRET);
    expect(source.secretsOf().values()).toContain(ISSUED);
    expect(source.secretsOf().values()).not.toContain('flag-secret-ignored');
    expect('fetch' in source).toBe(false);
    await source.close();
  });

  it("is the library's own token source, as createBaasClient takes it: the clientCredentials source (cache, refresh, secrets), or the token held", async () => {
    tokenEndpoint();
    const source = credentialsFrom({ 'token-url': TOKEN_URL, 'client-id': 'cid' }, { BAAS_CLIENT_SECRET: SECRET });
    const token = source.token as Exclude<typeof source.token, string | undefined>;
    expect(token).toBeTypeOf('function');
    expect(token.invalidate).toBeTypeOf('function');
    expect(await token()).toBe(ISSUED);
    expect(token.secrets?.()).toContain(ISSUED);
    await source.close();
    expect(credentialsFrom({ token: 'held-token-0123' }, {}).token).toBe('held-token-0123');
    expect(credentialsFrom({}, {}).token).toBeUndefined();
  });

  it('--client-secret when BAAS_CLIENT_SECRET is unset or empty; --scope sent', async () => {
    const seen = tokenEndpoint();
    const source = credentialsFrom(
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'client-secret': SECRET, scope: 'pix.read keys.list' },
      { BAAS_CLIENT_SECRET: '' },
    );
    await source.authorization();
    expect(seen[0]!.authorization).toBe(`Basic ${btoa(`cid:${SECRET}`)}`);
    expect(seen[0]!.form.get('scope')).toBe('pix.read keys.list');
  });

  it.each([
    ['client_secret_basic', 'client_secret_basic'],
    ['client_secret_post', 'client_secret_post'],
  ])('--auth-method %s authenticates with %s', async (flag, method) => {
    const seen = tokenEndpoint();
    await credentialsFrom(
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'auth-method': flag },
      { BAAS_CLIENT_SECRET: SECRET },
    ).authorization();
    if (method === 'client_secret_basic') {
      expect(seen[0]!.authorization).toBe(`Basic ${btoa(`cid:${SECRET}`)}`);
      expect(seen[0]!.form.has('client_secret')).toBe(false);
    } else {
      expect(seen[0]!.authorization).toBeNull();
      expect(seen[0]!.form.get('client_id')).toBe('cid');
      expect(seen[0]!.form.get('client_secret')).toBe(SECRET);
    }
  });

  it('with a certificate: the token request goes through it too (not the plain fetch), and the passphrase is listed', async () => {
    const seen = tokenEndpoint();
    const source = credentialsFrom(
      // https: a certificate is never used over plain http (refused at creation).
      { 'token-url': TOKEN_URL.replace('http:', 'https:'), 'client-id': 'cid', pfx: file('real.p12') },
      { BAAS_CLIENT_SECRET: SECRET, BAAS_TLS_PASSPHRASE: certs.passphrase },
    );
    expect(source.fetch).toBeTypeOf('function');
    expect(source.secretsOf().values().at(-1)).toBe(certs.passphrase);
    // Nothing listens on port 9, so the TLS transport fails; the plain fetch is never asked.
    await expect(source.authorization()).rejects.toThrow();
    expect(seen).toEqual([]);
    await source.close();
  });

  it.each([
    [
      { 'client-id': 'cid' },
      { BAAS_CLIENT_SECRET: SECRET },
      'client credentials need --token-url, --client-id and the client secret; missing: --token-url URL',
    ],
    [
      { scope: 'pix' },
      { BAAS_CLIENT_SECRET: SECRET },
      'client credentials need --token-url, --client-id and the client secret; missing: --token-url URL, --client-id ID',
    ],
    [
      { 'token-url': TOKEN_URL },
      { BAAS_CLIENT_SECRET: SECRET },
      'client credentials need --token-url, --client-id and the client secret; missing: --client-id ID',
    ],
    [
      { 'token-url': TOKEN_URL, 'client-id': '' },
      { BAAS_CLIENT_SECRET: SECRET },
      'client credentials need --token-url, --client-id and the client secret; missing: --client-id ID',
    ],
    [
      { 'token-url': TOKEN_URL, 'client-id': 'cid' },
      {},
      'client credentials need --token-url, --client-id and the client secret; missing: the secret (BAAS_CLIENT_SECRET, preferred, or --client-secret)',
    ],
    [
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'client-secret': '' },
      { BAAS_CLIENT_SECRET: '' },
      'client credentials need --token-url, --client-id and the client secret; missing: the secret (BAAS_CLIENT_SECRET, preferred, or --client-secret)',
    ],
    [
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'auth-method': 'jwt' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--auth-method must be client_secret_basic or client_secret_post',
    ],
    [
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'auth-method': 'toString' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--auth-method must be client_secret_basic or client_secret_post',
    ],
    [
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'auth-method': 'post' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--auth-method post is now client_secret_post (renamed in 1.0, as the library names it)',
    ],
    [
      { 'token-url': TOKEN_URL, 'client-id': 'cid', 'auth-method': 'basic' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--auth-method basic is now client_secret_basic (renamed in 1.0, as the library names it)',
    ],
    [
      { 'token-url': 'not a url', 'client-id': 'cid' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--token-url must be an absolute https URL, e.g. "https://auth.example/oauth/token"',
    ],
    [
      { 'token-url': 'http://auth.example/token', 'client-id': 'cid' },
      { BAAS_CLIENT_SECRET: SECRET },
      '--token-url uses plain http to a host that is not loopback, which would send the client secret in clear; use https, or pass --allow-insecure-http',
    ],
  ] as [CredentialFlags, Record<string, string>, string][])('%j: %s', (flags, env, message) => {
    expect(credentialError(flags, env)).toBe(message);
    expect(message).not.toContain(SECRET);
  });
});

describe('tlsFrom', () => {
  it('none of the certificate options: no tls', () => {
    expect(tlsFrom({ token: 'x' }, { BAAS_TLS_PASSPHRASE: PASSPHRASE })).toBeUndefined();
  });

  it('reads each file given; the passphrase from BAAS_TLS_PASSPHRASE (an empty one is none)', () => {
    expect(tlsFrom({ cert: file('client.crt'), key: file('client.key') }, {})).toStrictEqual({
      cert: Buffer.from(contents('client.crt')),
      key: Buffer.from(contents('client.key')),
    });
    expect(tlsFrom({ pfx: file('client.p12'), ca: file('ca.crt') }, { BAAS_TLS_PASSPHRASE: PASSPHRASE })).toStrictEqual(
      { pfx: Buffer.from(contents('client.p12')), passphrase: PASSPHRASE, ca: Buffer.from(contents('ca.crt')) },
    );
    expect(tlsFrom({ ca: file('ca.crt') }, { BAAS_TLS_PASSPHRASE: '' })).toStrictEqual({
      ca: Buffer.from(contents('ca.crt')),
    });
  });

  it.each([
    [{ pfx: 'p', cert: 'c' }, {}, 'give either --pfx or --cert and --key, not both'],
    [{ pfx: 'p', key: 'k' }, {}, 'give either --pfx or --cert and --key, not both'],
    [{ cert: 'c' }, {}, '--key is required with --cert'],
    [{ key: 'k' }, {}, '--cert is required with --key'],
    [
      { ca: 'CA' },
      { BAAS_TLS_PASSPHRASE: PASSPHRASE },
      'BAAS_TLS_PASSPHRASE is set but there is no --key or --pfx to decrypt',
    ],
  ] as [CredentialFlags, Record<string, string>, string][])('%j: %s', (flags, env, message) => {
    const ca = flags.ca ? { ca: file('ca.crt') } : {};
    expect(() => tlsFrom({ ...flags, ...ca }, env)).toThrow(new CredentialError(message));
  });

  it('a file it cannot read is named by its option and path, with the system code', () => {
    const missing = join(dir, 'missing.pem');
    expect(() => tlsFrom({ cert: missing, key: file('client.key') }, {})).toThrow(
      new CredentialError(`--cert: cannot read ${missing} (ENOENT)`),
    );
    expect(() => tlsFrom({ cert: file('client.crt'), key: missing }, {})).toThrow(
      new CredentialError(`--key: cannot read ${missing} (ENOENT)`),
    );
    expect(() => tlsFrom({ pfx: missing }, {})).toThrow(new CredentialError(`--pfx: cannot read ${missing} (ENOENT)`));
    expect(() => tlsFrom({ ca: dir }, {})).toThrow(new CredentialError(`--ca: cannot read ${dir} (EISDIR)`));
  });
});
