// clientCredentials and the client against the sandbox's token endpoint, end to end: in process
// (`fetch: sandbox.fetch` for both), over HTTP (`listen()`) and through MSW. One clock drives the
// sandbox (performance.now, faked) and the token source (its `now`), so expiry and refresh happen
// without waiting.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientCredentials, type ClientAuthMethod } from '../../src/auth/client-credentials.js';
import { BaasTokenError } from '../../src/auth/token-error.js';
import { createBaasClient } from '../../src/index.js';
import type { TokenEvent } from '../../src/logging/events.js';
import { createMswHandlers, createSandbox, type RunningSandbox, type Sandbox } from '../../src/sandbox/index.js';

const BASE = 'https://sandbox.baas.test';
const TTL_MS = 300_000;

// Only the clocks (Date for the token source, performance.now for the sandbox): the sockets, MSW and
// the client keep their real timers.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
});
afterAll(() => {
  vi.useRealTimers();
});

/** The token source's clock (Date) and the sandbox's (performance.now), moved together unless the source's is held still. */
class Clock {
  constructor(private readonly sourceStill = false) {}
  advance(ms: number): void {
    const sourceNow = Date.now();
    vi.advanceTimersByTime(ms);
    // Setting the date leaves performance.now where it is.
    if (this.sourceStill) vi.setSystemTime(sourceNow);
  }
}

function setup(
  options: { authMethod?: ClientAuthMethod; baseUrl?: string; viaHttp?: boolean; sourceClockStill?: boolean } = {},
) {
  const clock = new Clock(options.sourceClockStill);
  const sandbox = createSandbox({ seed: 'oauth-e2e', clients: 2 });
  return { clock, sandbox, connect: (baseUrl = options.baseUrl ?? BASE) => connect(sandbox, baseUrl, clock, options) };
}

function connect(
  sandbox: Sandbox,
  baseUrl: string,
  _clock: Clock,
  options: { authMethod?: ClientAuthMethod; viaHttp?: boolean },
) {
  const { clientId, clientSecret } = sandbox.clients[0]!;
  const inProcess = options.viaHttp ? {} : { fetch: sandbox.fetch };
  const source = clientCredentials({
    tokenUrl: `${baseUrl}/oauth/token`,
    clientId,
    clientSecret,
    ...(options.authMethod ? { authMethod: options.authMethod } : {}),
    ...inProcess,
  });
  const events: TokenEvent['action'][] = [];
  source.observe((event) => events.push(event.action));
  const baas = createBaasClient({ baseUrl, token: source, retry: false, ...inProcess });
  return { source, baas, events };
}

const listWith = (fetcher: typeof fetch, baseUrl: string, token: string) =>
  fetcher(`${baseUrl}/v2/api/pix/keys/list-keys?limit=1`, {
    headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' },
  });

describe('in process: clientCredentials({ fetch: sandbox.fetch }) with createBaasClient({ fetch: sandbox.fetch })', () => {
  for (const authMethod of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`${authMethod}: a call works; past the lifetime the next call gets a new token, and the old one is a 401`, async () => {
      const { clock, sandbox, connect: open } = setup({ authMethod });
      const { source, baas, events } = open();
      const page = await baas.listPixKeys({ limit: 3 });
      expect(page.data.map((key) => key.account_id)).toEqual(Array(3).fill(sandbox.clients[0]!.accounts[0]!.accountId));
      const first = await source();
      expect(events).toEqual(['fetched']);

      clock.advance(TTL_MS + 1);
      expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
      const second = await source();
      expect(second).not.toBe(first);
      expect(events).toEqual(['fetched', 'fetched']);
      expect((await listWith(sandbox.fetch, BASE, first)).status).toBe(401);
      expect((await listWith(sandbox.fetch, BASE, second)).status).toBe(200);
    });
  }

  it('a token the sandbox expired before the source did: the 401 makes the client fetch a new one once, and the call succeeds', async () => {
    // The source's clock stands still: it still believes its token fresh.
    const { clock, connect: open } = setup({ sourceClockStill: true });
    const { source, baas, events } = open();
    await baas.listPixKeys({ limit: 1 });
    const first = await source();
    clock.advance(TTL_MS);
    expect((await baas.listPixKeys({ limit: 1 })).data).toHaveLength(1);
    expect(events).toEqual(['fetched', 'invalidated', 'fetched']);
    expect(await source()).not.toBe(first);
  });

  it('a wrong secret: the source rejects with a BaasTokenError naming invalid_client, never the secret; the call fails as auth', async () => {
    for (const authMethod of ['client_secret_basic', 'client_secret_post'] as const) {
      const { sandbox } = setup();
      const secret = `${sandbox.clients[1]!.clientSecret}`;
      const source = clientCredentials({
        tokenUrl: `${BASE}/oauth/token`,
        clientId: sandbox.clients[0]!.clientId,
        clientSecret: secret,
        authMethod,
        fetch: sandbox.fetch,
      });
      const error = (await source().catch((e: unknown) => e)) as BaasTokenError;
      expect(error).toBeInstanceOf(BaasTokenError);
      expect([error.failure, error.status, error.error]).toEqual(['rejected', 401, 'invalid_client']);
      expect(JSON.stringify(error) + String(error) + error.message).not.toContain(secret);
      const baas = createBaasClient({ baseUrl: BASE, token: source, fetch: sandbox.fetch, retry: false });
      await expect(baas.listPixKeys()).rejects.toMatchObject({ kind: 'auth' });
    }
  });
});

describe('over HTTP: listen(), the global fetch', () => {
  let server: RunningSandbox;
  const env = setup({ viaHttp: true });
  const lines: string[] = [];
  beforeAll(async () => {
    server = await env.sandbox.listen({ log: (line) => lines.push(line) });
  });
  afterAll(() => server.stop());

  for (const authMethod of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`${authMethod}: a call works; past the lifetime a new token; the old one a 401`, async () => {
      const { source, baas, events } = connect(env.sandbox, server.url, env.clock, { authMethod, viaHttp: true });
      await baas.listPixKeys({ limit: 1 });
      const first = await source();
      env.clock.advance(TTL_MS + 1);
      await baas.listPixKeys({ limit: 1 });
      expect(events).toEqual(['fetched', 'fetched']);
      expect((await listWith(fetch, server.url, first)).status).toBe(401);
      expect((await listWith(fetch, server.url, await source())).status).toBe(200);
    });
  }

  it("the request log's line for the token path shows no secret, no id and no token", async () => {
    const { clientId, clientSecret } = env.sandbox.clients[0]!;
    const issued = await clientCredentials({ tokenUrl: `${server.url}/oauth/token`, clientId, clientSecret })();
    const tokenLines = lines.filter((line) => line.startsWith('POST /oauth/token'));
    expect(tokenLines.length).toBeGreaterThan(0);
    for (const line of tokenLines) expect(line).toMatch(/^POST \/oauth\/token → HTTP 200 in \d+\.\d ms$/);
    for (const secret of [clientSecret, clientId, btoa(`${clientId}:${clientSecret}`), issued])
      expect(lines.join('\n')).not.toContain(secret);
  });
});

describe('through MSW', () => {
  const msw = setupServer();
  const env = setup();
  const base = 'https://msw.baas.test';
  beforeAll(async () => {
    msw.use(...(await createMswHandlers(env.sandbox, { baseUrl: base })));
    msw.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(() => msw.close());

  it('the handlers serve the token path too: clientCredentials and the client on the global fetch', async () => {
    const { baas, events } = connect(env.sandbox, base, env.clock, { viaHttp: true });
    expect((await baas.listPixKeys({ limit: 2 })).data).toHaveLength(2);
    expect(events).toEqual(['fetched']);
  });
});
