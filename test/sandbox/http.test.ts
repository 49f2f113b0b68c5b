// The sandbox over HTTP (listen), through MSW; rate limit, faults and Prefer. Behind Prism's proxy (a Prism
// of its own): prism-proxy.matrix.test.ts.
import { http, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BaasApiError, BaasNetworkError, createBaasClient } from '../../src/index.js';
import { createMswHandlers, createSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

const sandbox = createSandbox({ seed: 'http', clients: 2, keysPerAccount: 40 });
const token = sandbox.clients[0]!.token;
const target = sandbox.clients[0]!.accounts[1]!;
const lines: string[] = [];
let running: RunningSandbox;

beforeAll(async () => {
  running = await sandbox.listen({ log: (line) => lines.push(line) });
});
afterAll(() => running?.stop());

describe('over HTTP', () => {
  it('serves the client on 127.0.0.1: updates are kept, pages walk to the end', async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const baas = createBaasClient({ baseUrl: running.url, token });
    await baas.updateNaturalPerson({
      account: target.account,
      documentNumber: target.documentNumber,
      body: { socialName: 'Bia' },
    });
    expect(sandbox.snapshot().clients[0]!.accounts[1]!.data.socialName).toBe('Bia');
    const ids = new Set<string>();
    for await (const key of baas.pixKeys({ limit: 9 })) ids.add(key.id);
    expect(ids.size).toBe(80);
  });

  it('logs each request without the token and with the CPF masked', () => {
    const log = lines.join('\n');
    expect(log).toContain('PUT /v2/api/baas-onboarding/account/natural-person');
    expect(log).not.toContain(token);
    expect(log).not.toContain(target.documentNumber);
    expect(log).toContain(`*********${target.documentNumber.slice(-2)}`);
  });

  it('refuses a User-Agent with a tab or with UTF-8 bytes: the 422 problem names the header', async () => {
    // `café/1.0` as UTF-8 bytes on the wire (fetch sends a header's characters as bytes).
    for (const agent of ['acme\tpay/1', Buffer.from('café/1.0').toString('latin1')]) {
      const answer = await fetch(`${running.url}/v2/api/pix/keys/list-keys`, {
        headers: { authorization: `Bearer ${token}`, 'user-agent': agent },
      });
      expect(answer.status).toBe(422);
      const problem = (await answer.json()) as { violations: { property: string }[] };
      expect(problem.violations.map((v) => v.property)).toEqual(['User-Agent']);
    }
  });

  it('drops the connection when told to: the client sees a BaasNetworkError', async () => {
    sandbox.inject({ operation: 'listPixKeys', drop: true });
    const baas = createBaasClient({ baseUrl: running.url, token, retry: false });
    const dropped = await baas.listPixKeys().catch((e: unknown) => e);
    expect(dropped, String(dropped)).toBeInstanceOf(BaasNetworkError);
    await expect(baas.listPixKeys()).resolves.toMatchObject({ data: expect.any(Array) });
  });
});

describe('rate limit, faults and Prefer (in process)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers 429 with Retry-After past the limit, per client, and lets a request through as soon as one is back', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const limited = createSandbox({ seed: 'rl', clients: 2, rateLimit: { requests: 2, windowMs: 10_000 } });
    const get = (client: number) =>
      limited.fetch(
        new Request('http://s/v2/api/pix/keys/list-keys', {
          headers: { authorization: `Bearer ${limited.clients[client]!.token}`, 'user-agent': 't/1' },
        }),
      );
    expect((await get(0)).status).toBe(200);
    expect((await get(0)).status).toBe(200);
    // One request comes back every 5 s: at 4 s, 0.8 of one.
    vi.advanceTimersByTime(4_000);
    const third = await get(0);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect((await get(1)).status).toBe(200);
    vi.advanceTimersByTime(1_000);
    expect((await get(0)).status).toBe(200);
    expect((await get(0)).status).toBe(429);
  });

  it('injects a status for the next N calls, a delay, and the documented Prefer responses', async () => {
    const faulty = createSandbox({ seed: 'faults' });
    const client = createBaasClient({
      baseUrl: 'https://x.test',
      token: faulty.clients[0]!.token,
      fetch: faulty.fetch,
      retry: false,
    });
    faulty.inject({ operation: 'listPixKeys', status: 503, times: 2 });
    for (let i = 0; i < 2; i += 1) {
      const error = (await client.listPixKeys().catch((e: unknown) => e)) as BaasApiError;
      expect(error.status).toBe(503);
      expect(error.retryAfterMs).toBe(30_000);
    }
    await expect(client.listPixKeys()).resolves.toBeDefined();
    faulty.inject({ operation: '*', delayMs: 30 });
    const started = performance.now();
    await client.listPixKeys();
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    const headers = { authorization: `Bearer ${faulty.clients[0]!.token}`, 'user-agent': 't/1' };
    const last = await faulty.fetch(
      new Request('http://s/v2/api/pix/keys/list-keys', { headers: { ...headers, prefer: 'example=LastPage' } }),
    );
    expect(((await last.json()) as { cursor: { next: null } }).cursor.next).toBeNull();
    const limited = await faulty.fetch(
      new Request('http://s/v2/api/pix/keys/list-keys', { headers: { ...headers, prefer: 'code=429' } }),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
  });
});

describe('through MSW', () => {
  const msw = setupServer();
  beforeAll(async () => {
    msw.use(...(await createMswHandlers(sandbox, { baseUrl: 'https://sandbox.baas.example' })));
    msw.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(() => msw.close());

  it("routes the client's requests (global fetch) to the sandbox", async () => {
    const baas = createBaasClient({ baseUrl: 'https://sandbox.baas.example', token: sandbox.clients[1]!.token });
    const page = await baas.listPixKeys({ limit: 3 });
    expect(page.data.map((k) => k.account_id)).toEqual(Array(3).fill(sandbox.clients[1]!.accounts[0]!.accountId));
  });

  it("with msw's own `http` passed, the handlers are msw's type; a dropped connection is a network error", async () => {
    const other = createSandbox({ seed: 'msw-typed' });
    const handlers: HttpHandler[] = await createMswHandlers(other, { baseUrl: 'https://typed.baas.example', http });
    msw.use(...handlers);
    const baas = createBaasClient({
      baseUrl: 'https://typed.baas.example',
      token: other.clients[0]!.token,
      retry: false,
    });
    expect((await baas.listPixKeys({ limit: 2 })).data).toHaveLength(2);
    other.inject({ operation: 'listPixKeys', drop: true });
    const dropped = await baas.listPixKeys().catch((e: unknown) => e);
    expect(dropped, String(dropped)).toBeInstanceOf(BaasNetworkError);
  });
});
