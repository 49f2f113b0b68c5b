// What createBaasClient sends for each operation and what it makes of the answer, with an injected
// fetch: per-call headers (checked, Authorization never taken from them), the body and its
// Content-Type, the URL and its query, the tokens it remembers to mask, and the readers' errors.
import { describe, expect, it } from 'vitest';
import {
  BaasApiError,
  BaasResponseError,
  BaasValidationError,
  createBaasClient,
  type BaasClientOptions,
} from '../../src/index.js';
import type { FetchLike } from '../../src/fetch.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF, firstPageKeys } from '../support/fixtures.js';

const BASE = 'https://api.example.test';
const LIST = `${BASE}/v2/api/pix/keys/list-keys`;
const page = () => ({ cursor: { next: null }, data: firstPageKeys() });

/** A fetch answering every request with `answer`, recording url and init. */
function recording(answer: (url: string, init: RequestInit) => Response = () => Response.json(page())) {
  const calls: Array<{ url: string; init: RequestInit; headers: Record<string, string> }> = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init, headers: { ...(init.headers as Record<string, string>) } });
    return answer(url, init);
  };
  return { fetch, calls };
}

const client = (fetch: FetchLike, options: Partial<BaasClientOptions> = {}) =>
  createBaasClient({ baseUrl: BASE, token: SECRET_TOKEN, retry: false, fetch, ...options });

const update = { account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: { socialName: 'Maria' } };

describe('per-call headers', () => {
  it('are sent beside Accept and User-Agent; a tab inside a value is fine', async () => {
    const server = recording();
    await client(server.fetch, { userAgent: 'my-app/2.1' }).listPixKeys({
      headers: { 'X-Correlation-Id': 'abc\tdef', "x-odd!#$%&'*+.^_`|~": '1' },
    });
    expect(server.calls[0]?.headers).toEqual({
      Accept: 'application/json, application/problem+json',
      'User-Agent': 'my-app/2.1',
      'X-Correlation-Id': 'abc\tdef',
      "x-odd!#$%&'*+.^_`|~": '1',
      Authorization: `Bearer ${SECRET_TOKEN}`,
    });
  });

  it.each(['authorization', 'Authorization', 'AUTHORIZATION'])(
    '%s given per call is ignored: the client token is sent',
    async (name) => {
      const server = recording();
      await client(server.fetch).listPixKeys({ headers: { [name]: 'Bearer someone-else' } });
      expect(
        Object.entries(server.calls[0]!.headers).filter(([header]) => header.toLowerCase() === 'authorization'),
      ).toEqual([['Authorization', `Bearer ${SECRET_TOKEN}`]]);
    },
  );

  it.each([
    ['a name with a space', { 'X Bad': '1' }],
    ['a name ending in a colon', { 'X-Bad:': '1' }],
    ['a name starting with a colon', { ':path': '1' }],
    ['an empty name', { '': '1' }],
    ['a name with a non-ASCII letter', { 'X-Ação': '1' }],
    ['a value with CR LF', { 'X-Note': `ok\r\nX-Injected: 1` }],
    ['a value with a lone LF', { 'X-Note': 'ok\nmore' }],
    ['a value with NUL', { 'X-Note': 'a\u0000b' }],
    ['a value with a control character', { 'X-Note': 'a\u0008b' }],
    ['a value with a unit separator', { 'X-Note': 'a\u001fb' }],
    ['a value with DEL', { 'X-Note': 'a\u007fb' }],
    ['a value that is not a string', { 'X-Note': 42 as unknown as string }],
  ])('%s is a BaasValidationError and nothing is sent', async (_what, headers) => {
    const server = recording();
    for (const call of [
      () => client(server.fetch).listPixKeys({ headers }),
      () => client(server.fetch).updateNaturalPerson({ ...update, headers }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BaasValidationError);
      expect((error as BaasValidationError).issues).toEqual([
        {
          path: 'headers',
          rule: 'is not valid HTTP (name or value)',
          message: expect.stringContaining('not valid HTTP'),
        },
      ]);
      expect((error as BaasValidationError).message).toMatch(/^(listPixKeys|updateNaturalPerson): /);
      expect((error as BaasValidationError).message.endsWith((error as BaasValidationError).issues[0]!.message)).toBe(
        true,
      );
    }
    expect(server.calls).toEqual([]);
  });
});

describe('the request of each operation', () => {
  it('an update: PUT, its query in the spec order, the JSON body with its Content-Type', async () => {
    const server = recording(() => Response.json({ version: '1.0.0', status: 'SUCCESS' }));
    await expect(client(server.fetch).updateNaturalPerson(update)).resolves.toEqual({
      version: '1.0.0',
      status: 'SUCCESS',
    });
    const [call] = server.calls;
    expect(call?.url).toBe(
      `${BASE}/v2/api/baas-onboarding/account/natural-person?Account=${VALID_ACCOUNT}&DocumentNumber=${VALID_CPF}`,
    );
    expect(call?.init.method).toBe('PUT');
    expect(call?.init.body).toBe('{"socialName":"Maria"}');
    expect(call?.headers['Content-Type']).toBe('application/json');
  });

  it('with validate: false, an update without a body goes without a body and without Content-Type', async () => {
    const server = recording(() => new Response(null, { status: 204 }));
    await expect(
      client(server.fetch, { validate: false }).updateNaturalPerson({ ...update, body: undefined as never }),
    ).resolves.toBeUndefined();
    expect(server.calls[0]?.init.body).toBeNull();
    expect(server.calls[0]?.headers).not.toHaveProperty('Content-Type');
  });

  it('a list: GET with no body nor Content-Type; only the query values given, encoded', async () => {
    const server = recording();
    const baas = client(server.fetch);
    await baas.listPixKeys();
    await baas.listPixKeys({ cursor: 'ab=c' });
    await baas.listPixKeys({ limit: 5, cursor: 'x' });
    await client(server.fetch, { validate: false }).listPixKeys({ cursor: 'a b&c=d/é' });
    expect(server.calls.map((call) => call.url)).toEqual([
      LIST,
      `${LIST}?cursor=ab%3Dc`,
      `${LIST}?limit=5&cursor=x`,
      `${LIST}?cursor=a%20b%26c%3Dd%2F%C3%A9`,
    ]);
    expect(server.calls[0]?.init.method).toBe('GET');
    expect(server.calls[0]?.init.body).toBeNull();
    expect(server.calls[0]?.headers).not.toHaveProperty('Content-Type');
  });

  it('pre-flight: a bad limit alone, or beside a cursor, is refused before sending', async () => {
    const server = recording();
    for (const input of [{ limit: 0 }, { limit: 0, cursor: 'x' }]) {
      const error = await client(server.fetch)
        .listPixKeys(input)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BaasValidationError);
      expect((error as BaasValidationError).operation).toBe('listPixKeys');
    }
    expect(server.calls).toEqual([]);
  });

  it('pre-flight off: what the server says comes back', async () => {
    const server = recording(() => Response.json({ title: 'Bad limit', status: 400 }, { status: 400 }));
    const error = await client(server.fetch, { validate: false })
      .listPixKeys({ limit: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasApiError);
    expect(server.calls.map((call) => call.url)).toEqual([`${LIST}?limit=0`]);
  });

  it('a per-call timeout alone, or a per-call retry alone, applies to that call', async () => {
    let attempts = 0;
    const failing = async (): Promise<Response> => {
      attempts += 1;
      return new Response('busy', { status: 503 });
    };
    const baas = createBaasClient({ baseUrl: BASE, token: SECRET_TOKEN, fetch: failing, retry: false });
    await baas.listPixKeys({ retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 } }).catch(() => undefined);
    expect(attempts).toBe(2);
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const error = await createBaasClient({
      baseUrl: BASE,
      token: SECRET_TOKEN,
      fetch: hanging,
      retry: false,
      timeoutMs: 60_000,
    })
      .listPixKeys({ timeoutMs: 1 })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^listPixKeys: /);
    expect((error as Error).message).toContain('1 ms (attempt 1)');
  });
});

describe('the answer', () => {
  it('a 204 or an empty 200 to an update is undefined', async () => {
    for (const answer of [() => new Response(null, { status: 204 }), () => new Response('', { status: 200 })]) {
      await expect(client(recording(answer).fetch).updateNaturalPerson(update)).resolves.toBeUndefined();
    }
  });

  it.each([
    ['an object without data', { cursor: { next: null } }],
    ['data that is not an array', { data: {} }],
    ['null', null],
    ['an array', []],
    ['a string', 'keys'],
  ])('a list answered with %s is a BaasResponseError naming the problem and the content type', async (_what, body) => {
    const server = recording(() => Response.json(body));
    const error = await client(server.fetch)
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).message).toMatch(/^listPixKeys: .*`data`/);
    expect((error as BaasResponseError).message).toContain('(HTTP 200, application/json)');
    expect((error as BaasResponseError).contentType).toBe('application/json');
  });

  it('an empty 200 to a list is a BaasResponseError without a content type', async () => {
    const error = await client(recording(() => new Response(null, { status: 200 })).fetch)
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).contentType).toBeUndefined();
    expect((error as BaasResponseError).message).toMatch(/^listPixKeys: .*`data`/);
    expect((error as BaasResponseError).message).toContain('(HTTP 200) (GET');
  });
});

describe('tokens the client masks', () => {
  /** A client whose token function hands out `tokens` in turn, against a server that echoes a token in its error. */
  function echoing(tokens: string[], options: Partial<BaasClientOptions> = {}) {
    let next = 0;
    let echo = '';
    const fetch = async () =>
      Response.json({ title: 'Refused', status: 403, detail: `token ${echo} refused` }, { status: 403 });
    const baas = createBaasClient({
      baseUrl: BASE,
      token: async () => tokens[next++]!,
      retry: false,
      fetch,
      ...options,
    });
    /** Runs one call (using the next token) whose error echoes `token`; returns the error's detail. */
    const detail = async (token: string) => {
      echo = token;
      const error = (await baas.listPixKeys().catch((e: unknown) => e)) as BaasApiError;
      return error.problem?.detail;
    };
    return detail;
  }

  it('a fixed token is masked wherever a server echoes it', async () => {
    const fetch = async () =>
      Response.json({ title: 'Refused', status: 403, detail: `token ${SECRET_TOKEN} refused` }, { status: 403 });
    const error = (await client(fetch)
      .listPixKeys()
      .catch((e: unknown) => e)) as BaasApiError;
    expect(error.problem?.detail).toBe('token [REDACTED] refused');
  });

  // Issue 34: a rotating source's token used more than 4 calls ago was not masked; the client now
  // remembers the latest 64 a token function gave (TOKENS_REMEMBERED in src/client/baas-client.ts).
  it('the 64 latest tokens of a token function are masked, the ones before are forgotten', async () => {
    const many = Array.from({ length: 67 }, (_, index) => `token-${String(index).padStart(2, '0')}-abcd`);
    const detail = echoing(many);
    // Through the 64th call, the first token is still one of the latest 64.
    for (let call = 0; call < 64; call += 1) expect(await detail(many[0]!)).toBe('token [REDACTED] refused');
    // The 65th call brings a 65th token: the first one is forgotten, the other 64 are still masked.
    expect(await detail(many[1]!)).toBe('token [REDACTED] refused');
    const later = echoing(many);
    for (let call = 0; call < 64; call += 1) await later('nothing');
    expect(await later(many[0]!)).toBe(`token ${many[0]} refused`);
    expect(await later(many[2]!)).toBe('token [REDACTED] refused');
    expect(await later(many[1]!)).toBe(`token ${many[1]} refused`);
  });

  it('a token handed out again does not push older tokens out', async () => {
    const detail = echoing([
      'token-one-1111',
      'token-two-2222',
      'token-two-2222',
      'token-two-2222',
      'token-two-2222',
      'token-two-2222',
    ]);
    for (let call = 0; call < 5; call += 1) await detail('nothing');
    expect(await detail('token-one-1111')).toBe('token [REDACTED] refused');
  });
});
