// clientCredentials' options: a misconfiguration is a TypeError at creation naming the field and the
// rule broken, never the value (the message's format is pinned once, in the first test); each option's effect is seen in what the token endpoint (an injected
// fetch) receives, and when.
import { describe, expect, it, vi } from 'vitest';
import { clientCredentials, type ClientCredentialsOptions } from '../../src/auth/client-credentials.js';
import { FAKE_URL, fakeEndpoint, fakeOptions, tokenAnswer } from './fake-endpoint.js';
import { fakeClock } from '../support/clock.js';

// The form of a certificate (a PEM block), which `tls` checks at creation; its contents only on the first request.
const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

const valid: ClientCredentialsOptions = {
  tokenUrl: FAKE_URL,
  clientId: 'acme-payments',
  clientSecret: 'fake-client-secret-1',
};

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

describe('options refused at creation', () => {
  it('pins the format once: the function, the option, the rule broken', () => {
    expect(refusal({ ...valid, timeoutMs: 0 })).toBe(
      'clientCredentials: timeoutMs must be a positive number, at most 2147483647',
    );
  });

  it('refuses an unknown option, naming the one meant, never its value', () => {
    const message = refusal({ ...valid, client_secret: 'fake-secret-never-shown' });
    expect(message).toMatch(/^clientCredentials: client_secret is not an option; did you mean clientSecret\?$/);
    expect(refusal({ ...valid, timeout: 5000 })).toContain('did you mean timeoutMs?');
    expect(message).not.toContain('fake-secret-never-shown');
    // A configuration object spread in whole, with the client's baseUrl beside the credentials, is refused:
    // a member not read is a setting lost without a word.
    expect(refusal({ ...valid, baseUrl: 'https://api.example' })).toMatch(
      /^clientCredentials: baseUrl is not an option \(known: tokenUrl, clientId, clientSecret, /,
    );
    // A member of tls given beside it: said where it goes (a client certificate otherwise never sent).
    expect(refusal({ ...valid, cert: 'PEM', key: 'PEM' })).toBe(
      'clientCredentials: cert is not an option here; it goes in tls: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }',
    );
  });

  it('names a bound only where there is one, and a list item by its index only in a list', () => {
    expect(refusal({ ...valid, refreshMarginSeconds: -1 })).toMatch(
      /^clientCredentials: refreshMarginSeconds must be a non-negative number$/,
    );
    expect(refusal({ ...valid, scope: 'pix.read bad"quote' })).toMatch(/^clientCredentials: scope must /);
    expect(refusal({ ...valid, scope: ['pix.read', 'bad"quote'] })).toMatch(/^clientCredentials: scope\[1\] must /);
  });

  it('takes each bound itself', () => {
    expect(() =>
      clientCredentials({ ...valid, timeoutMs: 2 ** 31 - 1, defaultExpiresInSeconds: 86_400, refreshMarginSeconds: 0 }),
    ).not.toThrow();
  });

  // Each refusal names the option (an index for a list) and the rule broken, never the value.
  it.each([
    ['no options', undefined, 'options', 'tokenUrl, clientId, clientSecret'],
    ['null', null, 'options', 'tokenUrl, clientId, clientSecret'],
    ['a string', 'https://auth.example/token', 'options', 'tokenUrl, clientId, clientSecret'],
    ['no tokenUrl', { ...valid, tokenUrl: undefined }, 'tokenUrl', 'is required'],
    ['an empty tokenUrl (an unset variable)', { ...valid, tokenUrl: '' }, 'tokenUrl', 'is required'],
    ['a tokenUrl that is a URL object', { ...valid, tokenUrl: new URL(FAKE_URL) }, 'tokenUrl', 'is required'],
    ['a relative tokenUrl', { ...valid, tokenUrl: '/oauth/token' }, 'tokenUrl', 'absolute https URL'],
    ['an ftp tokenUrl', { ...valid, tokenUrl: 'ftp://auth.example/token' }, 'tokenUrl', 'https, not ftp:'],
    [
      'a user name in tokenUrl',
      { ...valid, tokenUrl: 'https://acme@auth.example/token' },
      'tokenUrl',
      'not carry credentials',
    ],
    [
      'a password alone in tokenUrl',
      { ...valid, tokenUrl: 'https://:pw@auth.example/token' },
      'tokenUrl',
      'not carry credentials',
    ],
    [
      'plain http to another host',
      { ...valid, tokenUrl: 'http://auth.example/token' },
      'tokenUrl',
      'allowInsecureHttp: true',
    ],
    [
      'allowInsecureHttp: false',
      { ...valid, tokenUrl: 'http://auth.example/token', allowInsecureHttp: false },
      'tokenUrl',
      'plain http to auth.example',
    ],
    ['no clientId', { ...valid, clientId: undefined }, 'clientId', 'is required'],
    ['a numeric clientId', { ...valid, clientId: 42 }, 'clientId', 'is required'],
    ['an empty clientSecret', { ...valid, clientSecret: '' }, 'clientSecret', 'is required'],
    ['a clientId with a tab', { ...valid, clientId: 'acme\tpayments' }, 'clientId', 'control characters'],
    ['a clientSecret with NUL', { ...valid, clientSecret: 'secret\u0000value' }, 'clientSecret', 'control characters'],
    [
      'a clientSecret with US (0x1f)',
      { ...valid, clientSecret: 'secret\u001fvalue' },
      'clientSecret',
      'control characters',
    ],
    ['a clientSecret with DEL', { ...valid, clientSecret: 'secret\u007fvalue' }, 'clientSecret', 'control characters'],
    ['a scope string with a quote', { ...valid, scope: 'pix.read bad"quote' }, 'scope', 'RFC 6749 §3.3'],
    ['a scope with a backslash', { ...valid, scope: ['pix.read', 'bad\\slash'] }, 'scope[1]', 'RFC 6749 §3.3'],
    ['a scope item that is not a string', { ...valid, scope: [7] }, 'scope[0]', 'RFC 6749 §3.3'],
    ['an empty scope item', { ...valid, scope: ['pix.read', ''] }, 'scope[1]', 'RFC 6749 §3.3'],
    ['a scope item with a space', { ...valid, scope: ['pix.read customers'] }, 'scope[0]', 'RFC 6749 §3.3'],
    ['a scope item with a non-ASCII letter', { ...valid, scope: ['pix.léitura'] }, 'scope[0]', 'RFC 6749 §3.3'],
    [
      'an unknown authMethod',
      { ...valid, authMethod: 'private_key_jwt' },
      'authMethod',
      '"client_secret_basic" or "client_secret_post"',
    ],
    [
      'both tls and fetch',
      { ...valid, tls: { ca: 'x' }, fetch: async () => new Response() },
      'tls',
      'either tls or fetch',
    ],
    ['a fetch that is not a function', { ...valid, fetch: 'fetch' }, 'fetch', 'a function'],
    ['a tls that is not an object', { ...valid, tls: 'a PEM string' }, 'tls', 'an object'],
    [
      'a negative refreshMarginSeconds',
      { ...valid, refreshMarginSeconds: -1 },
      'refreshMarginSeconds',
      'non-negative number',
    ],
    [
      'a NaN refreshMarginSeconds',
      { ...valid, refreshMarginSeconds: Number.NaN },
      'refreshMarginSeconds',
      'non-negative number',
    ],
    [
      'a refreshMarginSeconds string',
      { ...valid, refreshMarginSeconds: '60' },
      'refreshMarginSeconds',
      'non-negative number',
    ],
    [
      'a zero defaultExpiresInSeconds',
      { ...valid, defaultExpiresInSeconds: 0 },
      'defaultExpiresInSeconds',
      'at most 86400',
    ],
    [
      'an infinite defaultExpiresInSeconds',
      { ...valid, defaultExpiresInSeconds: Number.POSITIVE_INFINITY },
      'defaultExpiresInSeconds',
      'at most 86400',
    ],
    [
      'a defaultExpiresInSeconds over 24 h',
      { ...valid, defaultExpiresInSeconds: 86_401 },
      'defaultExpiresInSeconds',
      'at most 86400',
    ],
    ['a zero timeoutMs', { ...valid, timeoutMs: 0 }, 'timeoutMs', 'at most 2147483647'],
    ['a negative timeoutMs', { ...valid, timeoutMs: -5 }, 'timeoutMs', 'at most 2147483647'],
    ['a timeoutMs no timer holds', { ...valid, timeoutMs: 2 ** 31 }, 'timeoutMs', 'at most 2147483647'],
    ['a zero maxResponseBytes', { ...valid, maxResponseBytes: 0 }, 'maxResponseBytes', 'whole number of bytes'],
    ['a fractional maxResponseBytes', { ...valid, maxResponseBytes: 1.5 }, 'maxResponseBytes', 'whole number of bytes'],
    ['a maxResponseBytes string', { ...valid, maxResponseBytes: '1024' }, 'maxResponseBytes', 'whole number of bytes'],
  ])('%s', (_name, options, option, rule) => {
    const message = refusal(options);
    // `clientCredentials: tokenUrl …`, or `clientCredentials.tls …` for a nested option.
    expect(message).toMatch(/^clientCredentials[:.]/);
    expect(message.replace(/[:.,]/g, ' ').split(' ')).toContain(option);
    expect(message).toContain(rule);
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

  it.each([
    'http://localhost.evil.example/token',
    'http://evil-localhost/token',
    'http://128.0.0.1/token',
    'http://10.127.0.1/token',
    'http://[::2]/token',
  ])('%s is not loopback: plain http to it is refused', (tokenUrl) => {
    expect(refusal({ ...valid, tokenUrl })).toMatch(/^clientCredentials: tokenUrl .*plain http/);
  });

  it('tls alone, or fetch alone (tls is checked further on the first request)', () => {
    expect(() => clientCredentials({ ...valid, tls: { ca: PEM_CERTIFICATE } })).not.toThrow();
    expect(() => clientCredentials({ ...valid, fetch: async () => new Response() })).not.toThrow();
  });

  it('tls is used for the token request: a shape problem is refused at creation, naming the field', () => {
    expect(() =>
      clientCredentials({
        ...valid,
        tls: { cert: PEM_CERTIFICATE } as NonNullable<ClientCredentialsOptions['tls']>,
      }),
    ).toThrow(/clientCredentials.tls.key .*clientCredentials.tls.cert/);
  });

  it('plain http to any host with allowInsecureHttp: true', async () => {
    const endpoint = fakeEndpoint();
    const source = clientCredentials(
      fakeOptions(endpoint, { tokenUrl: 'http://auth.example/token', allowInsecureHttp: true }),
    );
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
    const source = clientCredentials(
      fakeOptions(endpoint, { tokenUrl: 'https://auth.example:8443/oauth/token?tenant=acme#frag' }),
    );
    const error = (await source().catch((e: unknown) => e)) as Error & { tokenUrl: string };
    expect(endpoint.sent[0]!.url).toBe('https://auth.example:8443/oauth/token?tenant=acme#frag');
    expect(error.tokenUrl).toBe('https://auth.example:8443/oauth/token');
    // Origin and path only: no query, no fragment.
    expect(error.message).toContain(' https://auth.example:8443/oauth/token ');
    expect(error.message).not.toMatch(/tenant|frag/);
  });

  it('a zero refreshMarginSeconds keeps the token until the very end of its life', async () => {
    const clock = fakeClock(0);
    const endpoint = fakeEndpoint();
    const source = clientCredentials(fakeOptions(endpoint, { refreshMarginSeconds: 0 }));
    await source();
    clock.set(3_599_999);
    await source();
    expect(endpoint.sent).toHaveLength(1);
    clock.set(3_600_000);
    await source();
    expect(endpoint.sent).toHaveLength(2);
  });
});

describe('defaults', () => {
  it('client_secret_basic, a margin of 60 s, the default clock', async () => {
    const endpoint = fakeEndpoint((_request, index) =>
      tokenAnswer({ access_token: `token-${index + 1}`, expires_in: 1000 }),
    );
    const source = clientCredentials(fakeOptions(endpoint));
    await source();
    expect(endpoint.sent[0]!.headers.authorization).toMatch(/^Basic /);
    expect(endpoint.sent[0]!.form).toEqual({ grant_type: 'client_credentials' });
    // Date.now: a token of 1000 s, refreshed 60 s before it ends, is still fresh now.
    await source();
    expect(endpoint.sent).toHaveLength(1);
  });

  it('a margin of 60 s', async () => {
    const clock = fakeClock(0);
    const endpoint = fakeEndpoint((_request, index) =>
      tokenAnswer({ access_token: `token-${index + 1}`, expires_in: 1000 }),
    );
    const source = clientCredentials(fakeOptions(endpoint, {}));
    await source();
    clock.set(939_999);
    await source();
    expect(endpoint.sent).toHaveLength(1);
    clock.set(940_000);
    await source();
    expect(endpoint.sent).toHaveLength(2);
  });

  it('a lifetime of 300 s when the endpoint sends no expires_in, or defaultExpiresInSeconds', async () => {
    const clock = fakeClock(0);
    const endpoint = fakeEndpoint((_request, index) =>
      tokenAnswer({ access_token: `token-${index + 1}`, expires_in: undefined }),
    );
    const source = clientCredentials(fakeOptions(endpoint, { refreshMarginSeconds: 0 }));
    await source();
    clock.set(299_999);
    await source();
    expect(endpoint.sent).toHaveLength(1);
    clock.set(300_000);
    await source();
    expect(endpoint.sent).toHaveLength(2);

    clock.set(0);
    const longer = clientCredentials(fakeOptions(endpoint, { refreshMarginSeconds: 0, defaultExpiresInSeconds: 900 }));
    await longer();
    clock.set(899_999);
    await longer();
    expect(endpoint.sent).toHaveLength(3);
    clock.set(900_000);
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
    const error = (await clientCredentials(fakeOptions(endpoint, { timeoutMs: 5 }))().catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/within 5 ms$/);
    // The default: each token request's attempt (src/transport/attempt.ts) arms one timer of 10 000 ms.
    const timer = vi.spyOn(globalThis, 'setTimeout');
    try {
      await clientCredentials(fakeOptions(fakeEndpoint()))();
      expect(timer.mock.calls.map(([, ms]) => ms)).toEqual([10_000]);
    } finally {
      timer.mockRestore();
    }
  });
});
