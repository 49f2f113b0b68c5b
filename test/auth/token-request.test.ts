// The token request and what its answer becomes, with the token endpoint as an injected fetch: the
// exact request (RFC 6749 §4.4.2, §2.3.1), each RFC 6749 §5.1 field's effect, and the BaasTokenError of
// every failure (§5.2 errors, network, timeout, a 200 without a usable token): its fields, and what its
// message names. The message's format is pinned once, in 'error, error_description and error_uri …'.
// The masking of secrets in those errors is in masking.test.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { isTokenError } from '../../src/auth/token-error.js';
import { BaasAuthError, isBaasError } from '../../src/errors.js';
import type { TokenEvent } from '../../src/logging/events.js';
import {
  expectClean,
  failure,
  FAKE_URL,
  fakeEndpoint,
  fakeOptions,
  rawAnswer,
  SECRET,
  tokenAnswer,
  type TokenAnswer,
} from './fake-endpoint.js';
import { fakeClock } from '../support/clock.js';

const answering = (answer: TokenAnswer) => fakeEndpoint(answer);
const DESCRIPTION = 'scope pix.admin is not allowed';

/** What a BaasTokenError's message says after its fixed start, `token request to <url> failed: `. */
function detailOf(error: Error): string {
  const start = `token request to ${FAKE_URL} failed: `;
  expect(error.message.startsWith(start), error.message).toBe(true);
  return error.message.slice(start.length);
}

describe('the request', () => {
  it('client_secret_basic: POST, the form, the Basic credentials form-encoded then base64, no redirects, a timeout signal', async () => {
    const endpoint = fakeEndpoint();
    const clientId = 'acme payments+1';
    const clientSecret = 's3cr3t:with+special/chars é~*';
    await clientCredentials(fakeOptions(endpoint, { clientId, clientSecret, scope: ['pix.read', 'pix.write'] }))();
    const [request] = endpoint.sent;
    const formEncoded = (s: string) =>
      encodeURIComponent(s)
        .replace(/%20/g, '+')
        .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    expect(formEncoded(clientSecret)).toBe('s3cr3t%3Awith%2Bspecial%2Fchars+%C3%A9%7E*');
    expect(request!.url).toBe(FAKE_URL);
    expect(request!.init.method).toBe('POST');
    expect(request!.init.redirect).toBe('manual');
    expect(request!.init.signal).toBeInstanceOf(AbortSignal);
    expect(request!.headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${Buffer.from(`acme+payments%2B1:${formEncoded(clientSecret)}`, 'utf8').toString('base64')}`,
    });
    expect(request!.init.body).toBe('grant_type=client_credentials&scope=pix.read+pix.write');
  });

  it('client_secret_post: the credentials in the form, no Authorization', async () => {
    const endpoint = fakeEndpoint();
    await clientCredentials(fakeOptions(endpoint, { authMethod: 'client_secret_post' }))();
    expect(endpoint.sent[0]!.headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    });
    expect(endpoint.sent[0]!.init.body).toBe(
      `grant_type=client_credentials&client_id=acme-payments&client_secret=${SECRET}`,
    );
  });

  it('client_secret_basic given explicitly is the default', async () => {
    const endpoint = fakeEndpoint();
    await clientCredentials(fakeOptions(endpoint, { authMethod: 'client_secret_basic' }))();
    await clientCredentials(fakeOptions(endpoint))();
    expect(endpoint.sent[0]!.headers).toEqual(endpoint.sent[1]!.headers);
    expect(endpoint.sent[0]!.form).toEqual({ grant_type: 'client_credentials' });
  });
});

describe('a 200', () => {
  it.each([
    ['a number', 120, 120],
    ['a numeric string', '120', 120],
    ['a fraction', 0.5, 0.5],
    ['24 h', 86_400, 86_400],
    ['over 24 h (cut to 24 h)', 86_401, 86_400],
    ['1e300 (cut to 24 h)', 1e300, 86_400],
    ['"1e300" (cut to 24 h)', '1e300', 86_400],
    ['null (the default then)', null, 300],
    ['absent (the default then)', undefined, 300],
  ])('expires_in as %s is a lifetime of %j → %j s (the fetched event says it)', async (_name, expiresIn, seconds) => {
    const endpoint = answering(() => tokenAnswer({ access_token: 'token-1', expires_in: expiresIn }));
    const source = clientCredentials(fakeOptions(endpoint));
    const events: TokenEvent[] = [];
    source.observe((e) => events.push(e));
    expect(await source()).toBe('token-1');
    expect(events).toEqual([
      {
        type: 'token',
        action: 'fetched',
        tokenUrl: FAKE_URL,
        durationMs: expect.any(Number),
        expiresInSeconds: seconds,
      },
    ]);
  });

  it.each(['Bearer', 'bearer', 'BEARER', undefined])('token_type %j is accepted', async (type) => {
    const endpoint = answering(() => tokenAnswer({ access_token: 'token-1', token_type: type }));
    expect(await clientCredentials(fakeOptions(endpoint))()).toBe('token-1');
  });

  it('the token is kept from when the request started, not when it ended', async () => {
    const clock = fakeClock(1_000);
    const endpoint = answering(async (_request, index) => {
      clock.advance(30_000); // the endpoint takes 30 s to answer
      return tokenAnswer({ access_token: `token-${index + 1}`, expires_in: 200 });
    });
    const source = clientCredentials(fakeOptions(endpoint, { refreshMarginSeconds: 0 }));
    const events: TokenEvent[] = [];
    source.observe((e) => events.push(e));
    await source();
    expect(events[0]).toMatchObject({ action: 'fetched', durationMs: 30_000, expiresInSeconds: 200 });
    clock.set(1_000 + 199_999);
    expect(await source()).toBe('token-1');
    clock.set(1_000 + 200_000);
    expect(await source()).toBe('token-2');
  });

  it('the margin is at most half the lifetime', async () => {
    const clock = fakeClock(0);
    const endpoint = answering((_request, index) =>
      tokenAnswer({ access_token: `token-${index + 1}`, expires_in: 100 }),
    );
    const source = clientCredentials(fakeOptions(endpoint, { refreshMarginSeconds: 80 }));
    await source();
    clock.set(49_999);
    expect(await source()).toBe('token-1');
    clock.set(50_000);
    expect(await source()).toBe('token-2');
  });
});

describe('a 200 without a usable token: invalid_response, and nothing of the body shown', () => {
  it.each([
    // What the message names: the body that is not JSON, the field missing or broken, the type shown cut.
    ['an empty body', '', /^HTTP 200 .*access_token.*not JSON/],
    ['a body that is not JSON', 'access_token=token-in-a-form', /^HTTP 200 .*access_token.*not JSON/],
    ['JSON null', 'null', /^HTTP 200 .*without access_token/],
    ['a JSON array', '["token-in-a-list"]', /^HTTP 200 .*without access_token/],
    ['a JSON string', '"token-as-a-string"', /^HTTP 200 .*without access_token/],
    ['no access_token', '{"token_type":"Bearer"}', /^HTTP 200 .*without access_token/],
    ['an empty access_token', '{"access_token":""}', /^HTTP 200 .*without access_token/],
    ['a numeric access_token', '{"access_token":123456789}', /^HTTP 200 .*without access_token/],
    [
      'an access_token with CR LF',
      '{"access_token":"token-one\\r\\nX-Evil: 1"}',
      /^access_token .*control characters$/,
    ],
    ['an access_token with NUL', '{"access_token":"token-one\\u0000"}', /^access_token .*control characters$/],
    ['an access_token with US (0x1f)', '{"access_token":"\\u001ftoken-one"}', /^access_token .*control characters$/],
    ['an access_token with DEL', '{"access_token":"token-one\\u007f"}', /^access_token .*control characters$/],
    ['token_type mac', '{"access_token":"token-one","token_type":"mac"}', /^token_type is "mac", not Bearer$/],
    [
      'a long token_type, cut to 30 characters',
      `{"access_token":"token-one","token_type":"${'x'.repeat(40)}"}`,
      /^token_type is "x{30}… \(10 more characters\)", not Bearer$/,
    ],
    ['a numeric token_type', '{"access_token":"token-one","token_type":1}', /^token_type is number, not Bearer$/],
    ['a null token_type', '{"access_token":"token-one","token_type":null}', /^token_type is object, not Bearer$/],
  ])('%s', async (_name, body, detail) => {
    const error = await failure(answering(() => rawAnswer(200, body)));
    expect(error).toMatchObject({
      failure: 'invalid_response',
      status: 200,
      error: undefined,
      errorDescription: undefined,
      errorUri: undefined,
      tokenUrl: FAKE_URL,
    });
    expect(detailOf(error)).toMatch(detail);
    expectClean(error, ['token-one', 'token-in-a', 'token-as-a', '123456789', SECRET]);
  });

  it('a 201 with a token is a token (any 2xx)', async () => {
    expect(await clientCredentials(fakeOptions(answering(() => tokenAnswer({ access_token: 'token-1' }, 201))))()).toBe(
      'token-1',
    );
  });
});

describe('an error answer (RFC 6749 §5.2): rejected', () => {
  it('error, error_description and error_uri become fields and the message', async () => {
    const error = await failure(
      answering(() =>
        tokenAnswer(
          { error: 'invalid_scope', error_description: DESCRIPTION, error_uri: 'https://auth.example/errors#scope' },
          400,
        ),
      ),
    );
    expect(error).toBeInstanceOf(BaasAuthError);
    expect(isTokenError(error)).toBe(true);
    expect(isBaasError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'BaasTokenError',
      kind: 'auth',
      failure: 'rejected',
      status: 400,
      error: 'invalid_scope',
      errorDescription: DESCRIPTION,
      errorUri: 'https://auth.example/errors#scope',
      tokenUrl: FAKE_URL,
      attempts: 0,
    });
    // No cause: util.inspect shows none (not even `[cause]: undefined`).
    expect(inspect(error)).not.toContain('[cause]');
    // The message's format, pinned once here.
    expect(error.message).toBe(
      `token request to ${FAKE_URL} failed: HTTP 400 invalid_scope: scope pix.admin is not allowed`,
    );
    expect(error.toJSON()).toEqual({
      name: 'BaasTokenError',
      message: error.message,
      attempts: 0,
      kind: 'auth',
      failure: 'rejected',
      tokenUrl: FAKE_URL,
      status: 400,
      error: 'invalid_scope',
      errorDescription: DESCRIPTION,
      errorUri: 'https://auth.example/errors#scope',
    });
  });

  it('an error without a description says only the code', async () => {
    const error = await failure(answering(() => tokenAnswer({ error: 'invalid_client' }, 401)));
    expect(error).toMatchObject({ error: 'invalid_client', errorDescription: undefined, errorUri: undefined });
    expect(detailOf(error)).toBe('HTTP 401 invalid_client');
  });

  it.each([
    ['no error field', { error_description: 'something failed' }],
    ['an empty error', { error: '', error_description: 'something failed' }],
    ['a numeric error', { error: 401 }],
  ])('%s: the status alone, the description kept as a field', async (_name, body) => {
    const error = await failure(answering(() => rawAnswer(401, JSON.stringify(body))));
    expect(error.error).toBeUndefined();
    expect(error.errorDescription).toBe('error_description' in body ? 'something failed' : undefined);
    expect(detailOf(error)).toMatch(/^HTTP 401 .*RFC 6749/);
  });

  it.each([
    ['empty', '', ''],
    ['not strings', [DESCRIPTION], ['https://auth.example/errors']],
  ])('a description and a uri that are %s are left out', async (_name, description, uri) => {
    const error = await failure(
      answering(() =>
        rawAnswer(400, JSON.stringify({ error: 'invalid_request', error_description: description, error_uri: uri })),
      ),
    );
    expect(error).toMatchObject({ error: 'invalid_request', errorDescription: undefined, errorUri: undefined });
    expect(detailOf(error)).toBe('HTTP 400 invalid_request');
  });

  it('an error body that is not JSON, or a JSON array, says the status', async () => {
    for (const body of ['<html>Bad Gateway</html>', '[{"error":"invalid_client"}]']) {
      const error = await failure(answering(() => rawAnswer(502, body)));
      expect(error).toMatchObject({ failure: 'rejected', status: 502, error: undefined });
      expect(detailOf(error)).toMatch(/^HTTP 502 .*RFC 6749/);
    }
  });

  // The service's root, or the API's own path, given as tokenUrl: the message says what to check.
  it('a 404 or 405 without an error body says to check tokenUrl; other statuses do not', async () => {
    for (const status of [404, 405]) {
      const error = await failure(answering(() => rawAnswer(status, '')));
      expect(error).toMatchObject({ failure: 'rejected', status });
      expect(detailOf(error)).toMatch(new RegExp(`^HTTP ${status} .*check tokenUrl.*/oauth/token`));
    }
    expect(detailOf(await failure(answering(() => rawAnswer(502, ''))))).not.toContain('tokenUrl');
  });
});

/** A browser-like fetch's answer to redirect: 'manual': status 0, type 'opaqueredirect', no Location. */
function opaqueRedirect(): Response {
  const response = new Response(null, { status: 200 });
  Object.defineProperty(response, 'status', { value: 0 });
  Object.defineProperty(response, 'ok', { value: false });
  Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
  return response;
}

// fetch is asked for redirect: 'manual' (workerd has no 'error'); the request refuses the redirect itself.
describe('a redirect', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i is a network BaasTokenError naming the status; its target is never asked',
    async (status) => {
      const target = 'https://elsewhere.example/steal?cpf=1';
      const endpoint = answering(
        () => new Response('{"access_token":"never-read"}', { status, headers: { location: target } }),
      );
      const error = await failure(endpoint);
      expect(error).toMatchObject({ failure: 'network', status, error: undefined });
      expect(detailOf(error)).toContain(`HTTP ${status}`);
      expect(String(error)).not.toContain('elsewhere.example');
      expect(endpoint.sent).toHaveLength(1);
    },
  );

  it('an opaque redirect (status 0) is the same network BaasTokenError, without a status', async () => {
    const error = await failure(answering(() => opaqueRedirect()));
    expect(error).toMatchObject({ failure: 'network', status: undefined });
    expect(detailOf(error)).toContain('redirect');
  });

  it.each([300, 304])('a %i is not a redirect fetch follows: the endpoint rejected the request', async (status) => {
    const error = await failure(answering(() => new Response(null, { status, headers: { location: '/x' } })));
    expect(error).toMatchObject({ failure: 'rejected', status });
  });

  it("over real HTTP with the runtime's fetch: the 307 comes back, and the target is never asked", async () => {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(307, { location: '/moved' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const source = clientCredentials({
        tokenUrl: `http://127.0.0.1:${port}/oauth/token`,
        clientId: 'a',
        clientSecret: SECRET,
      });
      const error = await source().catch((e: unknown) => e);
      expect(isTokenError(error) && error.failure).toBe('network');
      expect((error as { status?: number }).status).toBe(307);
      expect(asked).toEqual(['/oauth/token']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('no answer', () => {
  it('a network failure: the causes chained, codes named once, secrets masked; the cause a redacted copy', async () => {
    const refused = 'connect ECONNREFUSED 10.0.0.1:443 for';
    const root = Object.assign(new Error(`${refused} ${SECRET}`), { code: 'ECONNREFUSED' });
    const middle = Object.assign(new Error('socket hang up', { cause: root }), { code: 'ECONNRESET' });
    const top = new TypeError('fetch failed', { cause: middle });
    const error = await failure(answering(() => Promise.reject(top)));
    expect(error).toMatchObject({ failure: 'network', status: undefined, error: undefined });
    expect(detailOf(error).split(': ')).toEqual([
      'fetch failed',
      'socket hang up (ECONNRESET)',
      `${refused} [REDACTED]`,
    ]);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause).not.toBe(top);
    expect((error.cause as Error).name).toBe('TypeError');
    expect((error.cause as Error).message).toBe('fetch failed');
    expectClean(error, [SECRET]);
  });

  it('a chain is followed four deep; a thrown value that is not an Error is shown as text; a numeric code is not named', async () => {
    const chain = {
      message: 'not an Error',
      toString: () => 'plain value',
      cause: Object.assign(new Error('b'), {
        code: 7,
        cause: new Error('c', { cause: new Error('d', { cause: new Error('e') }) }),
      }),
    };
    const error = await failure(answering(() => Promise.reject(chain)));
    expect(detailOf(error).split(': ')).toEqual(['plain value', 'b', 'c', 'd']);
    expect((error.cause as Error).message).toBe('plain value');
  });

  it('a failure reading the body is a network failure too', async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.error(new Error('body stream broke'));
      },
    });
    const error = await failure(answering(() => new Response(body, { status: 200 })));
    expect(error.failure).toBe('network');
    expect(detailOf(error)).toBe('body stream broke');
  });

  it('a timeout: the time limit named, the cause kept (redacted)', async () => {
    const endpoint = answering(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          request.init.signal!.addEventListener('abort', () => reject(new Error(`aborted while sending ${SECRET}`)));
        }),
    );
    const error = await failure(endpoint, { timeoutMs: 5 });
    expect(error).toMatchObject({ failure: 'timeout', status: undefined });
    expect(detailOf(error)).toMatch(/within 5 ms$/);
    expect((error.cause as Error).message).toBe('aborted while sending [REDACTED]');
  });
});
