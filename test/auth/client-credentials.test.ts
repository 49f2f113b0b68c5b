// clientCredentials against a real OAuth2 server (oauth2-mock-server on 127.0.0.1, a free port),
// which checks the client's credentials the way the test tells it to.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { clientCredentials, type ClientCredentialsOptions } from '../../src/auth/client-credentials.js';
import { BaasTokenError } from '../../src/auth/token-error.js';
import { createBaasClient } from '../../src/index.js';
import type { TokenEvent } from '../../src/logging/events.js';
import { makeTestCerts, type TestCerts } from '../support/certs.js';
import { fakeClock } from '../support/clock.js';

const CLIENT_ID = 'acme-payments';
// Characters that RFC 6749 §2.3.1 form-encodes before the Basic encoding.
const CLIENT_SECRET = 's3cr3t:with+special/chars é';

interface SeenRequest {
  authorization: string | undefined;
  body: Record<string, string>;
}

let server: OAuth2Server;
let tokenUrl: string;
let seen: SeenRequest[];

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

beforeAll(async () => {
  server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  tokenUrl = `http://127.0.0.1:${server.address().port}/token`;
});
afterAll(() => server?.stop());

beforeEach(() => {
  seen = [];
  // A token id, so two tokens issued within one second differ.
  server.service.on('beforeTokenSigning', (token) => {
    token.payload.jti = randomUUID();
  });
  // The mock issues a token to anyone; this makes it check the client as a real server does.
  server.service.on('beforeResponse', (response, request) => {
    const body = { ...(request.body as Record<string, string>) };
    seen.push({ authorization: request.headers.authorization, body });
    const basic = basicCredentials(request.headers.authorization);
    const id = basic?.id ?? body.client_id;
    const secret = basic?.secret ?? body.client_secret;
    if (id !== CLIENT_ID || secret !== CLIENT_SECRET) {
      response.statusCode = 401;
      response.body = { error: 'invalid_client', error_description: 'Client authentication failed' };
    }
  });
});
afterEach(() => {
  server.service.removeAllListeners('beforeResponse');
  server.service.removeAllListeners('beforeTokenSigning');
});

const options = (extra: Partial<ClientCredentialsOptions> = {}): ClientCredentialsOptions => ({
  tokenUrl,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  ...extra,
});

/** Runs the next token answer through `edit` (after the credential check). */
function nextAnswer(edit: (response: { statusCode: number; body: any }) => void): void {
  server.service.once('beforeResponse', (response) => edit(response as { statusCode: number; body: any }));
}

async function rejection(promise: Promise<unknown>): Promise<BaasTokenError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BaasTokenError);
  return error as BaasTokenError;
}

/** The client secret, its Basic form and the given tokens appear nowhere in an error. */
function expectNoSecrets(error: unknown, tokens: string[] = []): void {
  const basic = Buffer.from(
    `${encodeURIComponent(CLIENT_ID)}:${new URLSearchParams({ v: CLIENT_SECRET }).toString().slice(2)}`,
  ).toString('base64');
  const texts = [String(error), JSON.stringify(error), inspect(error, { depth: 10 })];
  for (const text of texts) for (const secret of [CLIENT_SECRET, basic, ...tokens]) expect(text).not.toContain(secret);
}

describe('a token from the token endpoint', () => {
  it('client_secret_basic (the default): credentials form-encoded in Authorization, grant and scope in the form', async () => {
    const source = clientCredentials(options({ scope: ['pix.read', 'customers.write'] }));
    const token = await source();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(seen).toHaveLength(1);
    expect(basicCredentials(seen[0]!.authorization)).toEqual({ id: CLIENT_ID, secret: CLIENT_SECRET });
    expect(seen[0]!.body).toEqual({ grant_type: 'client_credentials', scope: 'pix.read customers.write' });
  });

  it('client_secret_post: credentials in the form, no Authorization', async () => {
    const source = clientCredentials(options({ authMethod: 'client_secret_post', scope: 'pix.read' }));
    expect(await source()).toBeTruthy();
    expect(seen[0]!.authorization).toBeUndefined();
    expect(seen[0]!.body).toEqual({
      grant_type: 'client_credentials',
      scope: 'pix.read',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
  });

  it('is cached until expires_in minus the margin, then fetched again', async () => {
    const clock = fakeClock(1_000_000);
    const source = clientCredentials(options({ refreshMarginSeconds: 60 }));
    nextAnswer((r) => (r.body.expires_in = 300));
    const first = await source();
    clock.advance(239_000); // 1 s before expiry minus margin
    expect(await source()).toBe(first);
    expect(seen).toHaveLength(1);
    clock.advance(2_000); // past it
    const second = await source();
    expect(seen).toHaveLength(2);
    expect(second).not.toBe(first);
  });

  it('a short lifetime keeps at least half of it (margin at most half the lifetime)', async () => {
    const clock = fakeClock(0);
    const source = clientCredentials(options({ refreshMarginSeconds: 60 }));
    nextAnswer((r) => (r.body.expires_in = 40));
    await source();
    clock.set(19_000);
    await source();
    expect(seen).toHaveLength(1);
    clock.set(21_000);
    await source();
    expect(seen).toHaveLength(2);
  });

  it('1,000 concurrent calls on a cold cache make exactly 1 token request', async () => {
    const source = clientCredentials(options());
    const tokens = await Promise.all(Array.from({ length: 1000 }, () => source()));
    expect(seen).toHaveLength(1);
    expect(new Set(tokens).size).toBe(1);
  });

  it('invalidate() drops the token (the client does so on a 401); invalidate(old) after a refresh keeps the new one', async () => {
    const source = clientCredentials(options());
    const first = await source();
    source.invalidate(first);
    const second = await source();
    expect(seen).toHaveLength(2);
    expect(second).not.toBe(first);
    // A second 401 carrying the old token arrives late: the new token stays.
    source.invalidate(first);
    expect(await source()).toBe(second);
    expect(seen).toHaveLength(2);
    source.invalidate();
    await source();
    expect(seen).toHaveLength(3);
  });

  it('tells observers of each token fetched, dropped and failed, without token or secret', async () => {
    const source = clientCredentials(options());
    const events: TokenEvent[] = [];
    const stop = source.observe((e) => events.push(e));
    const token = await source();
    source.invalidate(token);
    nextAnswer((r) => {
      r.statusCode = 400;
      r.body = { error: 'invalid_scope', error_description: `bad scope for ${CLIENT_SECRET}` };
    });
    await source().catch(() => undefined);
    stop();
    await source();
    expect(events.map((e) => [e.action, e.error])).toEqual([
      ['fetched', undefined],
      ['invalidated', undefined],
      ['failed', 'invalid_scope'],
    ]);
    expect(events[0]).toMatchObject({ tokenUrl, expiresInSeconds: 3600 });
    expectNoSecrets(events, [token]);
  });

  it('is usable as createBaasClient({ token }) against the mock', async () => {
    const source = clientCredentials(options());
    const sent: string[] = [];
    const client = createBaasClient({
      baseUrl: inject('mockUrl'),
      token: source,
      fetch: (url, init) => {
        sent.push(new Headers(init.headers).get('authorization') ?? '');
        return fetch(url, init);
      },
    });
    const page = await client.listPixKeys({ limit: 1 });
    expect(Array.isArray(page.data)).toBe(true);
    expect(sent).toEqual([`Bearer ${await source()}`]);
  });
});

describe('failures', () => {
  it('an RFC 6749 error becomes a BaasTokenError with its code and description, without the secret', async () => {
    const source = clientCredentials(options({ clientSecret: 'wrong-secret-value' }));
    nextAnswer((r) => (r.body.error_description = 'Client authentication failed for secret wrong-secret-value'));
    const error = await rejection(source());
    expect(error).toMatchObject({ kind: 'auth', failure: 'rejected', status: 401, error: 'invalid_client', tokenUrl });
    expect(error.errorDescription).toMatch(/ secret \[REDACTED\]$/);
    expect(error.message).toContain(`HTTP 401 invalid_client: ${error.errorDescription}`);
    for (const text of [String(error), JSON.stringify(error), inspect(error)])
      expect(text).not.toContain('wrong-secret-value');
  });

  it('a failed request is not cached: the next call asks again; callers during the failure share it', async () => {
    const source = clientCredentials(options());
    nextAnswer((r) => {
      r.statusCode = 503;
      r.body = { error: 'temporarily_unavailable' };
    });
    const failed = await Promise.allSettled(Array.from({ length: 50 }, () => source()));
    expect(seen).toHaveLength(1);
    expect(
      failed.every((r) => r.status === 'rejected' && (r.reason as BaasTokenError).error === 'temporarily_unavailable'),
    ).toBe(true);
    const token = await source();
    expect(seen).toHaveLength(2);
    expect(token).toBeTruthy();
  });

  it('a non-RFC error body still says the status', async () => {
    nextAnswer((r) => {
      r.statusCode = 500;
      r.body = '<html>oops</html>';
    });
    const error = await rejection(clientCredentials(options())());
    expect(error).toMatchObject({ failure: 'rejected', status: 500, error: undefined });
    expect(error.message).toMatch(/HTTP 500 .*RFC 6749/);
  });

  it.each([
    ['no access_token', (b: any) => delete b.access_token, /without an access_token/],
    ['a token_type other than Bearer', (b: any) => (b.token_type = 'mac'), /token_type is "mac", not Bearer/],
    ['control characters in the token', (b: any) => (b.access_token = 'abc\r\nX-Evil: 1'), /control characters/],
  ])('a 200 with %s is an invalid_response, and the body is not shown', async (_name, edit, message) => {
    let issued = '';
    nextAnswer((r) => {
      issued = r.body.access_token;
      edit(r.body);
    });
    const error = await rejection(clientCredentials(options())());
    expect(error.failure).toBe('invalid_response');
    expect(error.message).toMatch(message);
    expectNoSecrets(error, issued ? [issued] : []);
  });

  it('an unreachable endpoint is a network failure naming the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejection(clientCredentials(options({ tokenUrl: `http://127.0.0.1:${port}/token` }))());
    expect(error.failure).toBe('network');
    expect(error.message).toMatch(/ECONNREFUSED/);
    expectNoSecrets(error);
  });

  it('an endpoint that never answers is a timeout, not a hang', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/token`;
      const error = await rejection(clientCredentials(options({ tokenUrl: url, timeoutMs: 300 }))());
      expect(error.failure).toBe('timeout');
      expect(error.message).toMatch(/within 300 ms$/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('options', () => {
  it.each([
    [{ tokenUrl: 'not a url' }, /tokenUrl must be an absolute https URL/],
    [
      { tokenUrl: 'http://auth.example/token' },
      /plain http to auth\.example, which would send the client secret in clear/,
    ],
    [{ tokenUrl: 'https://id:pw@auth.example/token' }, /tokenUrl must not carry credentials/],
    [{ clientId: '' }, /clientId is required/],
    [{ clientSecret: 'abc\ndef' }, /clientSecret must not contain control characters/],
    [{ scope: ['ok', 'bad"quote'] }, /scope\[1\] must be scope tokens/],
    [{ authMethod: 'private_key_jwt' }, /authMethod must be/],
    [{ fetch: globalThis.fetch, tls: { ca: 'x' } }, /either tls or fetch/],
    [{ refreshMarginSeconds: -1 }, /refreshMarginSeconds must be a non-negative number/],
    [{ tls: 'a PEM string' }, /clientCredentials: tls must be an object/],
  ])('%o is refused at creation', (patch, message) => {
    expect(() => clientCredentials(options(patch as Partial<ClientCredentialsOptions>))).toThrow(message);
    try {
      clientCredentials(options(patch as Partial<ClientCredentialsOptions>));
    } catch (error) {
      expect(String(error)).not.toContain('abc\ndef');
      expect(String(error)).not.toContain(CLIENT_SECRET);
    }
  });
});

describe('tls for the token endpoint', () => {
  let certs: TestCerts;
  let https: OAuth2Server;
  let httpsUrl: string;
  beforeAll(async () => {
    certs = await makeTestCerts();
    https = new OAuth2Server(`${certs.dir}/server.key`, `${certs.dir}/server.crt`);
    await https.issuer.keys.generate('RS256');
    await https.start(0, '127.0.0.1');
    httpsUrl = `https://127.0.0.1:${https.address().port}/token`;
  });
  afterAll(async () => {
    await https?.stop();
    await certs?.remove();
  });

  it('trusts a private CA given as tls.ca (loading undici only then)', async () => {
    const source = clientCredentials(options({ tokenUrl: httpsUrl, tls: { ca: certs.ca } }));
    try {
      expect(await source()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    } finally {
      await source.close();
    }
  });

  it('a malformed tls is refused when the token source is made, naming the field: no request is sent', () => {
    let error: unknown;
    try {
      clientCredentials(
        options({
          tokenUrl: httpsUrl,
          tls: { cert: certs.client.cert } as NonNullable<ClientCredentialsOptions['tls']>,
        }),
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/clientCredentials.tls.key .*clientCredentials.tls.cert/);
    expect((error as Error).message).not.toContain(CLIENT_SECRET);
  });

  it('close() releases the TLS agent: its kept-alive connection to the token endpoint closes', async () => {
    const open = new Set<TLSSocket>();
    const endpoint = createHttpsServer(certs.server, (request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ access_token: 'tls-token-123456', token_type: 'Bearer', expires_in: 60 }));
      });
    });
    endpoint.on('secureConnection', (socket: TLSSocket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const source = clientCredentials(
      options({
        tokenUrl: `https://127.0.0.1:${(endpoint.address() as AddressInfo).port}/token`,
        tls: { ca: certs.ca },
      }),
    );
    try {
      expect(await source()).toBe('tls-token-123456');
      expect(open.size).toBe(1);
      await source.close();
      await vi.waitFor(() => expect(open.size).toBe(0));
    } finally {
      endpoint.closeAllConnections();
      await new Promise((resolve) => endpoint.close(resolve));
    }
  });

  it('without it, the failure names the TLS problem', async () => {
    const error = await rejection(clientCredentials(options({ tokenUrl: httpsUrl }))());
    expect(error.failure).toBe('network');
    expect(error.message).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY/);
  });
});
