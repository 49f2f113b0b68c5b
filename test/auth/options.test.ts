// clientCredentials' options, word for word: a misconfiguration is a TypeError at creation naming the
// field and never its value; each option's effect is seen in what the token endpoint (an injected
// fetch) receives, and when.
import { describe, expect, it, vi } from 'vitest';
import { clientCredentials, type ClientCredentialsOptions, type TokenError } from '../../src/auth/index.js';
import { FAKE_URL, fakeEndpoint, fakeOptions, tokenAnswer } from './fake-endpoint.js';

const valid: ClientCredentialsOptions = { tokenUrl: FAKE_URL, clientId: 'acme-payments', clientSecret: 'fake-client-secret-1' };

/** The TypeError clientCredentials throws for these options, its message. */
function refusal(options: unknown): string {
  try {
    clientCredentials(options as ClientCredentialsOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
  throw new Error('expected clientCredentials to refuse these options');
}

describe('options refused at creation, word for word', () => {
  it.each([
    ['no options', undefined, 'clientCredentials: options are required: { tokenUrl, clientId, clientSecret }'],
    ['null', null, 'clientCredentials: options are required: { tokenUrl, clientId, clientSecret }'],
    ['a string', 'https://auth.example/token', 'clientCredentials: options are required: { tokenUrl, clientId, clientSecret }'],
    ['no tokenUrl', { ...valid, tokenUrl: undefined }, 'clientCredentials: tokenUrl is required, e.g. "https://auth.example/oauth/token"'],
    ['a tokenUrl that is a URL object', { ...valid, tokenUrl: new URL(FAKE_URL) }, 'clientCredentials: tokenUrl is required, e.g. "https://auth.example/oauth/token"'],
    ['a relative tokenUrl', { ...valid, tokenUrl: '/oauth/token' }, 'clientCredentials: tokenUrl must be an absolute https URL'],
    ['an ftp tokenUrl', { ...valid, tokenUrl: 'ftp://auth.example/token' }, 'clientCredentials: tokenUrl must use https, not ftp:'],
    ['a user name in tokenUrl', { ...valid, tokenUrl: 'https://acme@auth.example/token' }, 'clientCredentials: tokenUrl must not carry credentials; use clientId and clientSecret'],
    ['a password alone in tokenUrl', { ...valid, tokenUrl: 'https://:pw@auth.example/token' }, 'clientCredentials: tokenUrl must not carry credentials; use clientId and clientSecret'],
    [
      'plain http to another host',
      { ...valid, tokenUrl: 'http://auth.example/token' },
      'clientCredentials: tokenUrl uses plain http to auth.example, which would send the client secret in clear; use https, or pass allowInsecureHttp: true',
    ],
    ['allowInsecureHttp: false', { ...valid, tokenUrl: 'http://auth.example/token', allowInsecureHttp: false }, /^clientCredentials: tokenUrl uses plain http to auth\.example/],
    ['no clientId', { ...valid, clientId: undefined }, 'clientCredentials: clientId is required (a non-empty string)'],
    ['a numeric clientId', { ...valid, clientId: 42 }, 'clientCredentials: clientId is required (a non-empty string)'],
    ['an empty clientSecret', { ...valid, clientSecret: '' }, 'clientCredentials: clientSecret is required (a non-empty string)'],
    ['a clientId with a tab', { ...valid, clientId: 'acme\tpayments' }, 'clientCredentials: clientId must not contain control characters'],
    ['a clientSecret with NUL', { ...valid, clientSecret: 'secret\u0000value' }, 'clientCredentials: clientSecret must not contain control characters'],
    ['a clientSecret with US (0x1f)', { ...valid, clientSecret: 'secret\u001fvalue' }, 'clientCredentials: clientSecret must not contain control characters'],
    ['a clientSecret with DEL', { ...valid, clientSecret: 'secret\u007fvalue' }, 'clientCredentials: clientSecret must not contain control characters'],
    ['a scope string with a quote', { ...valid, scope: 'pix.read bad"quote' }, 'clientCredentials: scope must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3'],
    ['a scope with a backslash', { ...valid, scope: ['pix.read', 'bad\\slash'] }, 'clientCredentials: scope[1] must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3'],
    ['a scope item that is not a string', { ...valid, scope: [7] }, 'clientCredentials: scope[0] must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3'],
    ['an empty scope item', { ...valid, scope: ['pix.read', ''] }, 'clientCredentials: scope[1] must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3'],
    ['a scope item with a space', { ...valid, scope: ['pix.read customers'] }, 'clientCredentials: scope[0] must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3'],
    ['a scope item with a non-ASCII letter', { ...valid, scope: ['pix.léitura'] }, 'clientCredentials: scope[0] must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3'],
    ['an unknown authMethod', { ...valid, authMethod: 'private_key_jwt' }, 'clientCredentials: authMethod must be "client_secret_basic" or "client_secret_post"'],
    ['both tls and fetch', { ...valid, tls: { ca: 'x' }, fetch: async () => new Response() }, 'clientCredentials: give either tls or fetch, not both (tls builds its own fetch)'],
    ['a fetch that is not a function', { ...valid, fetch: 'fetch' }, 'clientCredentials: fetch must be a function (url, init)'],
    ['a now that is not a function', { ...valid, now: 1000 }, 'clientCredentials: now must be a function returning milliseconds'],
    ['a tls that is not an object', { ...valid, tls: 'a PEM string' }, 'clientCredentials.tls must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }'],
    ['a negative refreshMarginSeconds', { ...valid, refreshMarginSeconds: -1 }, 'clientCredentials: refreshMarginSeconds must be a non-negative number'],
    ['a NaN refreshMarginSeconds', { ...valid, refreshMarginSeconds: Number.NaN }, 'clientCredentials: refreshMarginSeconds must be a non-negative number'],
    ['a refreshMarginSeconds string', { ...valid, refreshMarginSeconds: '60' }, 'clientCredentials: refreshMarginSeconds must be a non-negative number'],
    ['a zero defaultExpiresInSeconds', { ...valid, defaultExpiresInSeconds: 0 }, 'clientCredentials: defaultExpiresInSeconds must be a positive number, at most 86400'],
    ['an infinite defaultExpiresInSeconds', { ...valid, defaultExpiresInSeconds: Number.POSITIVE_INFINITY }, 'clientCredentials: defaultExpiresInSeconds must be a positive number, at most 86400'],
    ['a defaultExpiresInSeconds over 24 h', { ...valid, defaultExpiresInSeconds: 86_401 }, 'clientCredentials: defaultExpiresInSeconds must be a positive number, at most 86400'],
    ['a zero timeoutMs', { ...valid, timeoutMs: 0 }, 'clientCredentials: timeoutMs must be a positive number, at most 2147483647'],
    ['a negative timeoutMs', { ...valid, timeoutMs: -5 }, 'clientCredentials: timeoutMs must be a positive number, at most 2147483647'],
    ['a timeoutMs no timer holds', { ...valid, timeoutMs: 2 ** 31 }, 'clientCredentials: timeoutMs must be a positive number, at most 2147483647'],
    ['a zero maxResponseBytes', { ...valid, maxResponseBytes: 0 }, 'clientCredentials: maxResponseBytes must be a positive whole number of bytes'],
    ['a fractional maxResponseBytes', { ...valid, maxResponseBytes: 1.5 }, 'clientCredentials: maxResponseBytes must be a positive whole number of bytes'],
    ['a maxResponseBytes string', { ...valid, maxResponseBytes: '1024' }, 'clientCredentials: maxResponseBytes must be a positive whole number of bytes'],
  ])('%s', (_name, options, message) => {
    if (typeof message === 'string') expect(refusal(options)).toBe(message);
    else expect(refusal(options)).toMatch(message);
  });

  it('never shows the client secret or the password of the URL', () => {
    const messages = [
      refusal({ ...valid, clientSecret: 'visible-secret\n' }),
      refusal({ ...valid, tokenUrl: 'https://acme:url-password@auth.example/token' }),
      refusal({ ...valid, clientSecret: 'visible-secret', scope: ['visible-secret"'] }),
    ];
    for (const message of messages) {
      expect(message).not.toContain('visible-secret');
      expect(message).not.toContain('url-password');
    }
  });
});

describe('options accepted', () => {
  it.each([
    'http://localhost/token',
    'http://LOCALHOST:8080/token',
    'http://127.0.0.1:9000/token',
    'http://127.255.10.200/token',
    'http://[::1]:9000/token',
    'https://auth.example/token',
  ])('%s (https, or http to loopback)', (tokenUrl) => {
    expect(() => clientCredentials({ ...valid, tokenUrl })).not.toThrow();
  });

  it.each(['http://localhost.evil.example/token', 'http://evil-localhost/token', 'http://128.0.0.1/token', 'http://10.127.0.1/token', 'http://[::2]/token'])(
    '%s is not loopback: plain http to it is refused',
    (tokenUrl) => {
      expect(refusal({ ...valid, tokenUrl })).toMatch(/^clientCredentials: tokenUrl uses plain http to /);
    },
  );

  it('tls alone, or fetch alone (tls is checked further on the first request)', () => {
    expect(() => clientCredentials({ ...valid, tls: { ca: 'a PEM CA' } })).not.toThrow();
    expect(() => clientCredentials({ ...valid, fetch: async () => new Response() })).not.toThrow();
  });

  it('tls is used for the token request: a shape problem fails it as a network TokenError naming the field', async () => {
    const error = (await clientCredentials({ ...valid, tls: { cert: 'a PEM certificate' } as NonNullable<ClientCredentialsOptions['tls']> })().catch((e: unknown) => e)) as TokenError;
    expect(error.failure).toBe('network');
    expect(error.message).toMatch(/^token request to https:\/\/auth\.example\/oauth\/token failed: clientCredentials\.tls\.key is required with clientCredentials\.tls\.cert/);
  });

  it('plain http to any host with allowInsecureHttp: true', async () => {
    const endpoint = fakeEndpoint();
    const source = clientCredentials(fakeOptions(endpoint, { tokenUrl: 'http://auth.example/token', allowInsecureHttp: true }));
    expect(await source()).toBe('token-1');
    expect(endpoint.sent[0]!.url).toBe('http://auth.example/token');
  });

  it('every visible ASCII character but quote and backslash is a scope token', async () => {
    const all = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i))
      .filter((c) => c !== '"' && c !== '\\')
      .join('');
    const endpoint = fakeEndpoint();
    await clientCredentials(fakeOptions(endpoint, { scope: [all, 'x'] }))();
    expect(endpoint.sent[0]!.form.scope).toBe(`${all} x`);
  });

  it('a scope string is split on spaces, extra spaces dropped; an empty scope sends none', async () => {
    const endpoint = fakeEndpoint();
    await clientCredentials(fakeOptions(endpoint, { scope: '  pix.read   customers.write ' }))();
    await clientCredentials(fakeOptions(endpoint, { scope: '' }))();
    await clientCredentials(fakeOptions(endpoint, { scope: [] }))();
    await clientCredentials(fakeOptions(endpoint, { scope: '   ' }))();
    expect(endpoint.sent.map((r) => r.form)).toEqual([
      { grant_type: 'client_credentials', scope: 'pix.read customers.write' },
      { grant_type: 'client_credentials' },
      { grant_type: 'client_credentials' },
      { grant_type: 'client_credentials' },
    ]);
  });

  it('the token URL is sent as given, query included, and errors show only its origin and path', async () => {
    const endpoint = fakeEndpoint(() => tokenAnswer({ error: 'invalid_client' }, 401));
    const source = clientCredentials(fakeOptions(endpoint, { tokenUrl: 'https://auth.example:8443/oauth/token?tenant=acme#frag' }));
    const error = (await source().catch((e: unknown) => e)) as Error & { tokenUrl: string };
    expect(endpoint.sent[0]!.url).toBe('https://auth.example:8443/oauth/token?tenant=acme#frag');
    expect(error.tokenUrl).toBe('https://auth.example:8443/oauth/token');
    expect(error.message).toBe('token request to https://auth.example:8443/oauth/token failed: HTTP 401 invalid_client');
  });

  it('a zero refreshMarginSeconds keeps the token until the very end of its life', async () => {
    let now = 0;
    const endpoint = fakeEndpoint();
    const source = clientCredentials(fakeOptions(endpoint, { now: () => now, refreshMarginSeconds: 0 }));
    await source();
    now = 3_599_999;
    await source();
    expect(endpoint.sent).toHaveLength(1);
    now = 3_600_000;
    await source();
    expect(endpoint.sent).toHaveLength(2);
  });
});

describe('defaults', () => {
  it('client_secret_basic, a margin of 60 s, the default clock', async () => {
    const endpoint = fakeEndpoint((_request, index) => tokenAnswer({ access_token: `token-${index + 1}`, expires_in: 1000 }));
    const source = clientCredentials(fakeOptions(endpoint));
    await source();
    expect(endpoint.sent[0]!.headers.authorization).toMatch(/^Basic /);
    expect(endpoint.sent[0]!.form).toEqual({ grant_type: 'client_credentials' });
    // Date.now: a token of 1000 s, refreshed 60 s before it ends, is still fresh now.
    await source();
    expect(endpoint.sent).toHaveLength(1);
  });

  it('a margin of 60 s', async () => {
    let now = 0;
    const endpoint = fakeEndpoint((_request, index) => tokenAnswer({ access_token: `token-${index + 1}`, expires_in: 1000 }));
    const source = clientCredentials(fakeOptions(endpoint, { now: () => now }));
    await source();
    now = 939_999;
    await source();
    expect(endpoint.sent).toHaveLength(1);
    now = 940_000;
    await source();
    expect(endpoint.sent).toHaveLength(2);
  });

  it('a lifetime of 300 s when the endpoint sends no expires_in, or defaultExpiresInSeconds', async () => {
    let now = 0;
    const endpoint = fakeEndpoint((_request, index) => tokenAnswer({ access_token: `token-${index + 1}`, expires_in: undefined }));
    const source = clientCredentials(fakeOptions(endpoint, { now: () => now, refreshMarginSeconds: 0 }));
    await source();
    now = 299_999;
    await source();
    expect(endpoint.sent).toHaveLength(1);
    now = 300_000;
    await source();
    expect(endpoint.sent).toHaveLength(2);

    now = 0;
    const longer = clientCredentials(fakeOptions(endpoint, { now: () => now, refreshMarginSeconds: 0, defaultExpiresInSeconds: 900 }));
    await longer();
    now = 899_999;
    await longer();
    expect(endpoint.sent).toHaveLength(3);
    now = 900_000;
    await longer();
    expect(endpoint.sent).toHaveLength(4);
  });

  it('a token request times out after 10 000 ms, or timeoutMs', async () => {
    const endpoint = fakeEndpoint(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          request.init.signal!.addEventListener('abort', () => reject(request.init.signal!.reason));
        }),
    );
    const error = (await clientCredentials(fakeOptions(endpoint, { timeoutMs: 5 }))().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`token request to ${FAKE_URL} failed: no answer within 5 ms`);
    // The default: the signal of each token request is AbortSignal.timeout(10 000).
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    try {
      await clientCredentials(fakeOptions(fakeEndpoint()))();
      expect(timeout.mock.calls).toEqual([[10_000]]);
    } finally {
      timeout.mockRestore();
    }
  });
});
