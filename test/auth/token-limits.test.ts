// What clientCredentials does with a hostile or broken token endpoint's numbers: an expires_in that
// is not a positive, finite number of seconds is refused (nothing cached, nothing sent with the
// token), a huge one is kept for at most 24 h, and an answer larger than maxResponseBytes is cut off
// while it streams.
import { describe, expect, it, vi } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { BaasTokenError } from '../../src/auth/token-error.js';
import { MAX_ACCESS_TOKEN_CHARS } from '../../src/auth/request-token.js';
import { BaasAuthError, createBaasClient } from '../../src/index.js';
import { endlessBody } from '../support/endless-body.js';
import { expectClean, failure, fakeEndpoint, fakeOptions, tokenAnswer } from './fake-endpoint.js';
import { fakeClock } from '../support/clock.js';

const TOKEN = 'refused-token-value-123';

/** One listPixKeys of a client whose token comes from `endpoint`: what it threw, and its API fetch. */
async function listThrough(endpoint: ReturnType<typeof fakeEndpoint>) {
  const api = vi.fn(async () => Response.json({ data: [], cursor: { next: null } }));
  const baas = createBaasClient({
    baseUrl: 'https://api.baas.example',
    token: clientCredentials(fakeOptions(endpoint)),
    fetch: api,
    retry: false,
  });
  return { api, error: await baas.listPixKeys().catch((e: unknown) => e) };
}

describe('an expires_in that is sent must be a positive, finite number of seconds', () => {
  it.each([
    ['zero', 0],
    ['negative', -100],
    ['a negative string', '-5'],
    ['an empty string', ''],
    ['"Infinity"', 'Infinity'],
    ['not a number', 'soon'],
    ['a boolean', true],
    ['a list', [120]],
    ['an object', { seconds: 120 }],
  ])('%s is refused with a BaasTokenError naming expires_in; nothing is cached', async (_name, expiresIn) => {
    const endpoint = fakeEndpoint(() => tokenAnswer({ access_token: TOKEN, expires_in: expiresIn }));
    const source = clientCredentials(fakeOptions(endpoint));
    const error = await source().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTokenError);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect((error as BaasTokenError).failure).toBe('invalid_response');
    expect((error as BaasTokenError).status).toBe(200);
    expect((error as BaasTokenError).message).toContain('expires_in must be a positive, finite number of seconds');
    expectClean(error, [TOKEN]);
    // Not cached: the next call asks the endpoint again.
    await source().catch(() => undefined);
    expect(endpoint.sent).toHaveLength(2);
  });

  it('no API call is sent with a token whose expires_in is refused', async () => {
    const endpoint = fakeEndpoint(() => tokenAnswer({ access_token: TOKEN, expires_in: 0 }));
    const { api, error } = await listThrough(endpoint);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect((error as BaasAuthError).cause).toBeInstanceOf(BaasTokenError);
    expect((error as BaasAuthError).attempts).toBe(0);
    expect(api).not.toHaveBeenCalled();
    expectClean(error, [TOKEN]);
  });
});

describe('a huge expires_in', () => {
  it.each([1e300, Number.MAX_VALUE, 10 * 365 * 86_400])(
    '%s keeps the token 24 h (less the margin), not for ever',
    async (expiresIn) => {
      const clock = fakeClock(0);
      const endpoint = fakeEndpoint((_request, index) =>
        tokenAnswer({ access_token: `token-${index + 1}`, expires_in: expiresIn }),
      );
      const source = clientCredentials(fakeOptions(endpoint, {}));
      expect(await source()).toBe('token-1');
      clock.set(86_400_000 - 60_000 - 1);
      expect(await source()).toBe('token-1');
      clock.set(86_400_000 - 60_000);
      expect(await source()).toBe('token-2');
      expect(endpoint.sent).toHaveLength(2);
    },
  );
});

describe('maxResponseBytes of the token endpoint', () => {
  it.each([200, 400])(
    'an endless answer (HTTP %s) stops at the limit: a BaasTokenError naming it, the stream cancelled',
    async (status) => {
      const endless = endlessBody(256);
      const endpoint = fakeEndpoint(
        () => new Response(endless.body, { status, headers: { 'content-type': 'application/json' } }),
      );
      const error = await failure(endpoint, { maxResponseBytes: 1_000 });
      expect(error.failure).toBe('invalid_response');
      expect(error.status).toBe(status);
      expect(error.message).toContain('maxResponseBytes (1000 bytes)');
      // Read up to the first chunk past the limit, and no further.
      expect(endless.seen.bytes).toBeLessThanOrEqual(1_000 + 256);
      expect(endless.seen.cancelled).toBe(true);
    },
  );

  it('names a limit of 11 digits in units, so the masking leaves it whole (10000000000 bytes: 10 GB, never *********00)', async () => {
    const endpoint = fakeEndpoint(
      () =>
        new Response('{}', { headers: { 'content-type': 'application/json', 'content-length': String(10 ** 10 + 1) } }),
    );
    const error = await failure(endpoint, { maxResponseBytes: 10 ** 10 });
    expect(error.message).toContain('maxResponseBytes (10 GB)');
    expect(error.message).not.toContain('*');
  });

  it('is 10 MiB by default (a declared Content-Length over it is refused before reading)', async () => {
    const endless = endlessBody();
    const over = fakeEndpoint(
      () =>
        new Response(endless.body, {
          headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024 + 1) },
        }),
    );
    const error = await failure(over);
    expect(error.message).toContain('maxResponseBytes (10 MiB)');
    expect(endless.seen.chunks).toBe(0);
    // Exactly at the limit is read as usual.
    const at = fakeEndpoint(() => {
      const body = JSON.stringify({ access_token: 'token-1', token_type: 'Bearer', expires_in: 60 });
      return new Response(body, {
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
    });
    expect(await clientCredentials(fakeOptions(at, { maxResponseBytes: 64 }))()).toBe('token-1');
  });
});

describe('the length of an access_token', () => {
  it('a 9 MB access_token is a BaasTokenError naming the field and its limit; no API call is sent with it', async () => {
    const huge = 'A'.repeat(9 * 1024 * 1024);
    const endpoint = fakeEndpoint(() => tokenAnswer({ access_token: huge }));
    const { api, error } = await listThrough(endpoint);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect((error as BaasAuthError).attempts).toBe(0);
    const cause = (error as BaasAuthError).cause as BaasTokenError;
    expect(cause).toBeInstanceOf(BaasTokenError);
    expect(cause).toMatchObject({ failure: 'invalid_response', status: 200 });
    expect(cause.message).toContain(`access_token is longer than ${MAX_ACCESS_TOKEN_CHARS} characters`);
    expect(api).not.toHaveBeenCalled();
    // Nothing of it is shown (a prefix of it neither: the error names only its length limit).
    expect(JSON.stringify(error)).not.toContain('A'.repeat(64));
  });

  it(`is ${MAX_ACCESS_TOKEN_CHARS} characters: one at the limit is kept, one past it refused and not cached`, async () => {
    expect(MAX_ACCESS_TOKEN_CHARS).toBe(4096);
    const atLimit = 'b'.repeat(MAX_ACCESS_TOKEN_CHARS);
    expect(await clientCredentials(fakeOptions(fakeEndpoint(() => tokenAnswer({ access_token: atLimit }))))()).toBe(
      atLimit,
    );
    const endpoint = fakeEndpoint(() => tokenAnswer({ access_token: `${atLimit}b` }));
    const source = clientCredentials(fakeOptions(endpoint));
    const error = await source().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTokenError);
    expect((error as BaasTokenError).failure).toBe('invalid_response');
    await source().catch(() => undefined);
    expect(endpoint.sent).toHaveLength(2);
  });
});
