// The sandbox's token endpoint (POST /oauth/token, RFC 6749 §4.4) in process: the seeded client
// credentials, both client authentication methods, every §5.2 error it answers, the lifetime of an
// issued token on the sandbox's clock, the bound on live tokens per client, a rate limit shared with
// the static token, and hostile input that never crashes it nor comes back in an answer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, SANDBOX_TOKENS, type Sandbox } from '../../src/sandbox/index.js';
import { MAX_AUTHORIZATION_LENGTH, MAX_TOKEN_REQUEST_BYTES } from '../../src/sandbox/oauth.js';
import { answerOf, LIST, list, UPDATE } from './in-process.js';
import { oauthHostileProperty } from './oauth.property.js';

const TOKEN_URL = 'https://sandbox.baas.test/oauth/token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
// RFC 6749 §5.2: error_description = 1*( %x20-21 / %x23-5B / %x5D-7E )
const DESCRIPTION = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function post(sandbox: Sandbox, body: string, headers: Record<string, string> = {}, url = TOKEN_URL) {
  return sandbox.fetch(new Request(url, { method: 'POST', headers: { ...FORM, ...headers }, body }));
}

/** A token by client_secret_basic for client `index`. */
async function issue(sandbox: Sandbox, index = 0): Promise<string> {
  const { clientId, clientSecret } = sandbox.clients[index]!;
  const answer = await answerOf(
    await post(sandbox, 'grant_type=client_credentials', { authorization: basic(clientId, clientSecret) }),
  );
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

const listWith = (sandbox: Sandbox, token: string) =>
  sandbox.fetch(`${LIST}?limit=1`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' } });

describe('seeded client credentials', () => {
  it('each client has a clientId and a clientSecret derived from the seed, like the rest of its data', () => {
    const a = createSandbox({ seed: 'creds', clients: 3 });
    const again = createSandbox({ seed: 'creds', clients: 3 });
    const other = createSandbox({ seed: 'other-creds', clients: 3 });
    expect(a.clients.map((c) => [c.clientId, c.clientSecret])).toEqual(
      again.clients.map((c) => [c.clientId, c.clientSecret]),
    );
    for (const [i, client] of a.clients.entries()) {
      expect(client.clientId).toMatch(/^sbx_client_[0-9a-f]{16}$/);
      expect(client.clientSecret).toMatch(/^sbx_secret_[0-9a-f]{32}$/);
      expect(client.clientSecret).not.toBe(other.clients[i]!.clientSecret);
    }
    expect(new Set(a.clients.map((c) => c.clientId)).size).toBe(3);
    expect(new Set(a.clients.map((c) => c.clientSecret)).size).toBe(3);
  });

  it('snapshot() shows no client secret, no client id, no static and no issued token, as values or as names', async () => {
    const sandbox = createSandbox({ seed: 'snap-creds', clients: 2 });
    const issued = await issue(sandbox, 1);
    const text = JSON.stringify(sandbox.snapshot());
    for (const client of sandbox.clients)
      for (const value of [client.clientSecret, client.clientId, client.token]) expect(text).not.toContain(value);
    expect(text).not.toContain(issued);
    expect(text).not.toMatch(/secret|token|clientId/i);
  });
});

describe('POST /oauth/token: a token', () => {
  const sandbox = createSandbox({ seed: 'oauth', clients: 2 });
  const [me, them] = sandbox.clients as [Sandbox['clients'][0], Sandbox['clients'][0]];

  it('by client_secret_basic: 200 with access_token, token_type Bearer, expires_in (default 300), no-store; on any host', async () => {
    for (const url of [
      TOKEN_URL,
      'http://127.0.0.1:9/oauth/token',
      'http://anything.example:8080/oauth/token?tenant=x',
    ]) {
      const answer = await answerOf(
        await post(
          sandbox,
          'grant_type=client_credentials',
          { authorization: basic(me.clientId, me.clientSecret) },
          url,
        ),
      );
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers.pragma).toBe('no-cache');
      expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
      expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: SANDBOX_TOKENS.defaultTtlSeconds });
      expect(answer.body.access_token).toMatch(/^sbx_at_[0-9a-f]{40}$/);
    }
    expect(SANDBOX_TOKENS.defaultTtlSeconds).toBe(300);
  });

  it('by client_secret_post (client_id and client_secret in the form)', async () => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: them.clientId,
      client_secret: them.clientSecret,
    });
    const answer = await answerOf(await post(sandbox, form.toString()));
    expect(answer.status).toBe(200);
    expect(answer.body.token_type).toBe('Bearer');
  });

  it('decodes the Basic credentials as RFC 6749 §2.3.1 says: each part form-urlencoded before base64', async () => {
    // `s` written %73 and `_` written %5F: the same id once decoded.
    const encodedId = me.clientId.replace(/^s/, '%73').replace(/_/g, '%5F');
    const answer = await post(sandbox, 'grant_type=client_credentials', {
      authorization: basic(encodedId, me.clientSecret),
    });
    expect(answer.status).toBe(200);
    // The scheme's name in any case (RFC 9110 §11.1).
    const lower = await post(sandbox, 'grant_type=client_credentials', {
      authorization: basic(me.clientId, me.clientSecret).replace('Basic', 'bAsIc'),
    });
    expect(lower.status).toBe(200);
  });

  it('grants a well-formed scope as asked (no scopes are modelled), and says so', async () => {
    const answer = await answerOf(
      await post(sandbox, 'grant_type=client_credentials&scope=pix.read+onboarding.write', {
        authorization: basic(me.clientId, me.clientSecret),
      }),
    );
    expect([answer.status, answer.body.scope]).toEqual([200, 'pix.read onboarding.write']);
  });

  it("an issued token acts as its client: its accounts, not another client's", async () => {
    const token = await issue(sandbox, 0);
    const page = await answerOf(
      await sandbox.fetch(`${LIST}?limit=200`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' } }),
    );
    const expected = await answerOf(await list(sandbox, '?limit=200'));
    expect(page.status).toBe(200);
    expect(page.text).toBe(expected.text);
    const theirs = them.accounts[0]!;
    const put = (account: typeof theirs) =>
      sandbox.fetch(
        new Request(`${UPDATE}?Account=${account.account}&DocumentNumber=${account.documentNumber}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{"email":"oauth@example.com"}',
        }),
      );
    expect((await put(theirs)).status).toBe(403);
    expect((await put(me.accounts[0]!)).status).toBe(200);
    sandbox.reset();
  });
});

describe('POST /oauth/token: errors as RFC 6749 §5.2', () => {
  const sandbox = createSandbox({ seed: 'oauth-errors', clients: 2 });
  const { clientId, clientSecret } = sandbox.clients[0]!;
  const other = sandbox.clients[1]!;
  const grant = 'grant_type=client_credentials';
  const postForm = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const auth = { authorization: basic(clientId, clientSecret) };

  const cases: [string, () => Promise<Response>, number, string][] = [
    [
      'both methods at once',
      () => post(sandbox, `${grant}&client_id=${clientId}&client_secret=${clientSecret}`, auth),
      400,
      'invalid_request',
    ],
    [
      'Basic and a client_id in the form that names another client',
      () => post(sandbox, `${grant}&client_id=${other.clientId}`, auth),
      400,
      'invalid_request',
    ],
    ['no client authentication', () => post(sandbox, grant), 401, 'invalid_client'],
    [
      'a client_id alone, as a public client',
      () => post(sandbox, `${grant}&client_id=${clientId}`),
      401,
      'invalid_client',
    ],
    [
      'a wrong secret by Basic',
      () => post(sandbox, grant, { authorization: basic(clientId, `${clientSecret}x`) }),
      401,
      'invalid_client',
    ],
    [
      "another client's secret by Basic",
      () => post(sandbox, grant, { authorization: basic(clientId, other.clientSecret) }),
      401,
      'invalid_client',
    ],
    [
      'a wrong secret in the form',
      () => post(sandbox, postForm({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'nope' })),
      401,
      'invalid_client',
    ],
    [
      'an unknown client',
      () => post(sandbox, grant, { authorization: basic('sbx_client_0000000000000000', clientSecret) }),
      401,
      'invalid_client',
    ],
    ['Basic that is not base64', () => post(sandbox, grant, { authorization: 'Basic !!!' }), 401, 'invalid_client'],
    [
      'Basic without a colon',
      () => post(sandbox, grant, { authorization: `Basic ${btoa(clientId)}` }),
      401,
      'invalid_client',
    ],
    [
      'Basic with a broken percent-encoding',
      () => post(sandbox, grant, { authorization: basic(`${clientId}%zz`, clientSecret) }),
      401,
      'invalid_client',
    ],
    [
      'Basic that is not UTF-8',
      () => post(sandbox, grant, { authorization: `Basic ${Buffer.from([0xff, 0x3a, 0xfe]).toString('base64')}` }),
      401,
      'invalid_client',
    ],
    [
      'a Bearer token instead of client credentials',
      () => post(sandbox, grant, { authorization: `Bearer ${sandbox.clients[0]!.token}` }),
      401,
      'invalid_client',
    ],
    ['no grant_type', () => post(sandbox, '', auth), 400, 'invalid_request'],
    ['an empty grant_type (counts as not sent)', () => post(sandbox, 'grant_type=', auth), 400, 'invalid_request'],
    ['grant_type sent twice', () => post(sandbox, `${grant}&${grant}`, auth), 400, 'invalid_request'],
    [
      'client_secret sent twice',
      () =>
        post(
          sandbox,
          postForm({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }) +
            `&client_secret=${clientSecret}`,
        ),
      400,
      'invalid_request',
    ],
    [
      'grant_type=password',
      () => post(sandbox, 'grant_type=password&username=a&password=b', auth),
      400,
      'unsupported_grant_type',
    ],
    [
      'grant_type=authorization_code',
      () => post(sandbox, 'grant_type=authorization_code&code=x', auth),
      400,
      'unsupported_grant_type',
    ],
    ['a scope with a double space', () => post(sandbox, `${grant}&scope=a++b`, auth), 400, 'invalid_scope'],
    ['a scope with a quote', () => post(sandbox, `${grant}&scope=%22a%22`, auth), 400, 'invalid_scope'],
    [
      'a scope of 1,025 characters',
      () => post(sandbox, `${grant}&scope=${'a'.repeat(1025)}`, auth),
      400,
      'invalid_scope',
    ],
    [
      'a form sent as JSON',
      () => post(sandbox, grant, { ...auth, 'content-type': 'application/json' }),
      400,
      'invalid_request',
    ],
    [
      'a body that is not UTF-8',
      () =>
        sandbox.fetch(
          new Request(TOKEN_URL, {
            method: 'POST',
            headers: { ...FORM, ...auth },
            body: new Uint8Array([0x67, 0xff, 0xfe]),
          }),
        ),
      400,
      'invalid_request',
    ],
    [
      'the client secret in the URL',
      () => post(sandbox, grant, { ...auth }, `${TOKEN_URL}?client_secret=${clientSecret}`),
      400,
      'invalid_request',
    ],
    [
      'GET',
      () => sandbox.fetch(new Request(`${TOKEN_URL}?grant_type=client_credentials`, { headers: auth })),
      405,
      'invalid_request',
    ],
    [
      'a body over the limit',
      () => post(sandbox, `${grant}&scope=${'a'.repeat(MAX_TOKEN_REQUEST_BYTES)}`, auth),
      413,
      'invalid_request',
    ],
  ];

  for (const [name, send, status, error] of cases) {
    it(`${name}: ${status} ${error}`, async () => {
      const answer = await answerOf(await send());
      expect([answer.status, answer.body.error]).toEqual([status, error]);
      expect(Object.keys(answer.body).sort()).toEqual(['error', 'error_description']);
      expect(answer.body.error_description).toMatch(DESCRIPTION);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(answer.headers['cache-control']).toBe('no-store');
      // A 401 names the scheme to use (RFC 6749 §5.2); no other answer challenges.
      expect(answer.headers['www-authenticate']).toBe(
        status === 401 ? 'Basic realm="baas-pix-contract sandbox", charset="UTF-8"' : undefined,
      );
      if (status === 405) expect(answer.headers.allow).toBe('POST');
      for (const secret of [clientSecret, other.clientSecret]) expect(answer.text).not.toContain(secret);
    });
  }

  it(`an Authorization header over ${MAX_AUTHORIZATION_LENGTH} characters is refused unread, naming the limit`, async () => {
    const long = basic(clientId, `${clientSecret}${'x'.repeat(MAX_AUTHORIZATION_LENGTH)}`);
    const answer = await answerOf(await post(sandbox, grant, { authorization: long }));
    expect([answer.status, answer.body.error]).toEqual([401, 'invalid_client']);
    expect(answer.body.error_description).toContain(String(MAX_AUTHORIZATION_LENGTH));
    expect(answer.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('a streamed body over the limit (no Content-Length) is refused once the limit is passed, and the rest is not read', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode('a'.repeat(1024)));
        if (pulled > 1_000) controller.close();
      },
    });
    const request = new Request(TOKEN_URL, {
      method: 'POST',
      headers: { ...FORM, ...auth },
      body,
      duplex: 'half',
    } as RequestInit);
    const answer = await answerOf(await sandbox.fetch(request));
    expect([answer.status, answer.body.error]).toEqual([413, 'invalid_request']);
    expect(pulled).toBeLessThan(20);
  });
});

// The hostile-input property, at a tenth of its runs (oauth.property.ts; every run in oauth.matrix.test.ts).
oauthHostileProperty('quick');

describe('issued tokens on the API', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("live tokenTtlSeconds on the sandbox's clock: then a 401 problem saying it expired; the static token keeps working", async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const sandbox = createSandbox({ seed: 'ttl', tokenTtlSeconds: 60 });
    const answer = await answerOf(
      await post(sandbox, 'grant_type=client_credentials', {
        authorization: basic(sandbox.clients[0]!.clientId, sandbox.clients[0]!.clientSecret),
      }),
    );
    expect(answer.body.expires_in).toBe(60);
    const token = answer.body.access_token as string;
    vi.advanceTimersByTime(59_999);
    expect((await listWith(sandbox, token)).status).toBe(200);
    vi.advanceTimersByTime(1);
    const expired = await answerOf(await listWith(sandbox, token));
    // RFC 6750 §3.1: a token sent but refused is an invalid_token, so a client knows to get a new one.
    expect([expired.status, expired.headers['www-authenticate'], expired.headers['content-type']]).toEqual([
      401,
      'Bearer error="invalid_token", error_description="The bearer token has expired: ask the token endpoint for a new one."',
      'application/problem+json',
    ]);
    expect(expired.body).toMatchObject({ status: 401, type: 'https://sandbox.baas.example/problems/unauthorized' });
    expect(expired.body.detail).toMatch(/expired/);
    const unknown = await answerOf(await listWith(sandbox, 'sbx_at_0000000000000000000000000000000000000000'));
    expect([unknown.status, unknown.body.detail]).toEqual([401, 'The bearer token is not known to this sandbox.']);
    vi.advanceTimersByTime(365 * 86_400_000);
    expect((await list(sandbox)).status).toBe(200);
  });

  it('reset() keeps issued tokens: a token source shared by several tests keeps working', async () => {
    const sandbox = createSandbox({ seed: 'ttl-reset' });
    const token = await issue(sandbox);
    sandbox.reset();
    expect((await listWith(sandbox, token)).status).toBe(200);
  });

  it('tokenTtlSeconds: a whole number of seconds from 1 to 86,400, else a RangeError naming it', () => {
    for (const ttl of [0, -1, 1.5, 86_401, Number.NaN, Infinity, '60' as unknown as number]) {
      expect(() => createSandbox({ tokenTtlSeconds: ttl })).toThrow(RangeError);
      expect(() => createSandbox({ tokenTtlSeconds: ttl })).toThrow(
        /^createSandbox: tokenTtlSeconds must be a whole number of seconds from 1 to 86,400, got /,
      );
    }
    expect(() => createSandbox({ tokenTtlSeconds: 1e10 })).toThrow(
      /^createSandbox: tokenTtlSeconds must be a whole number of seconds from 1 to 86,400, got one above 86,400$/,
    );
    expect(() => createSandbox({ tokenTtlSeconds: 1 })).not.toThrow();
    expect(() => createSandbox({ tokenTtlSeconds: 86_400 })).not.toThrow();
    expect(SANDBOX_TOKENS.maxTtlSeconds).toBe(86_400);
  });

  it(`each client keeps at most ${SANDBOX_TOKENS.livePerClient} issued tokens, the oldest dropped first; other clients keep theirs`, async () => {
    const sandbox = createSandbox({ seed: 'bound', clients: 2 });
    const theirs = await issue(sandbox, 1);
    const mine: string[] = [];
    for (let i = 0; i < 500; i += 1) mine.push(await issue(sandbox, 0));
    const live = mine.slice(-SANDBOX_TOKENS.livePerClient);
    for (const token of live) expect((await listWith(sandbox, token)).status).toBe(200);
    for (const token of mine.slice(-SANDBOX_TOKENS.livePerClient - 3, -SANDBOX_TOKENS.livePerClient))
      expect((await listWith(sandbox, token)).status).toBe(401);
    expect((await listWith(sandbox, mine[0]!)).status).toBe(401);
    expect((await listWith(sandbox, theirs)).status).toBe(200);
    expect(SANDBOX_TOKENS.livePerClient).toBe(16);
  });

  it("share their client's rate limit with its static token", async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const sandbox = createSandbox({
      seed: 'rate',
      clients: 2,
      rateLimit: { requests: 2, windowMs: 60_000 },
    });
    const token = await issue(sandbox, 0);
    expect((await list(sandbox)).status).toBe(200);
    expect((await listWith(sandbox, token)).status).toBe(200);
    expect((await listWith(sandbox, token)).status).toBe(429);
    expect((await list(sandbox)).status).toBe(429);
    // Another client has its own window.
    expect((await list(sandbox, '', {}, 1)).status).toBe(200);
  });

  it('the token endpoint has no faults and no rate limit of the API', async () => {
    const sandbox = createSandbox({
      seed: 'no-faults',
      rateLimit: { requests: 1 },
      faults: [{ operation: '*', status: 503, times: 5 }],
    });
    for (let i = 0; i < 3; i += 1) await issue(sandbox);
  });
});
