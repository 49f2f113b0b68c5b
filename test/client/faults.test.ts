// createBaasClient against a local fault server: retries, aborts, error bodies, pagination, headers.
// Network and body faults are in test/faults/fault-matrix.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BaasApiError,
  BaasResponseError,
  BaasTimeoutError,
  createBaasClient,
  type BaasClientOptions,
} from '../../src/index.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { firstPageKeys } from '../support/fixtures.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

// Answers come at once: a timeout no load reaches, so only the tests that set a short one meet their timer.
const client = (options: Partial<BaasClientOptions> = {}) =>
  createBaasClient({
    baseUrl: server.url,
    token: 'fault-token-123456',
    timeoutMs: 5_000,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });

const page = (next: string | null, keys = firstPageKeys()) => ({ cursor: { next }, data: keys });

describe('faults', () => {
  it('retries a timeout, then gives up after maxAttempts', async () => {
    server.handle(() => undefined);
    // Counted where they leave: under load a 100 ms attempt may end before the server has read it.
    let sent = 0;
    const counting: typeof fetch = (input, init) => {
      sent += 1;
      return fetch(input, init);
    };
    const error = (await client({ timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1 }, fetch: counting })
      .listPixKeys()
      .catch((e: unknown) => e)) as BaasTimeoutError;
    expect(error).toBeInstanceOf(BaasTimeoutError);
    expect(error.attempts).toBe(2);
    expect(sent).toBe(2);
  });

  it('reports an HTML 502 as BaasResponseError, after retrying it', async () => {
    server.handle((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>'),
    );
    const error = (await client()
      .listPixKeys()
      .catch((e: unknown) => e)) as BaasResponseError;
    expect(error).toBeInstanceOf(BaasResponseError);
    expect(error.status).toBe(502);
    expect(error.bodySnippet).toContain('502 Bad Gateway');
    expect(server.requests).toHaveLength(3);
  });

  it('reads the upstream provider envelope into BaasApiError', async () => {
    server.handle((_req, res) =>
      json(
        res,
        400,
        { version: '1.0.0', status: 'ERROR', error: { errorCode: 'CIE999', message: 'Conta não encontrada' } },
        { 'content-type': 'application/json' },
      ),
    );
    const error = (await client()
      .listPixKeys()
      .catch((e: unknown) => e)) as BaasApiError;
    expect(error).toBeInstanceOf(BaasApiError);
    expect(error.code).toBe('CIE999');
    expect(error.problem?.detail).toBe('Conta não encontrada');
  });

  it('reads a plain-text error into BaasApiError, truncated', async () => {
    server.handle((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found '.repeat(200)));
    const error = (await client()
      .listPixKeys()
      .catch((e: unknown) => e)) as BaasApiError;
    expect(error).toBeInstanceOf(BaasApiError);
    expect(error.problem?.detail?.length).toBeLessThan(600);
  });

  it('does not retry 401', async () => {
    server.handle((_req, res) => json(res, 401, { title: 'Unauthorized', status: 401 }));
    await expect(client().listPixKeys()).rejects.toMatchObject({ kind: 'api', status: 401 });
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry at all with retry: false', async () => {
    server.handle((_req, res) => json(res, 503, { title: 'Service unavailable', status: 503 }));
    await expect(client({ retry: false }).listPixKeys()).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('stops when the caller aborts, with the caller reason', async () => {
    server.handle(() => undefined);
    const controller = new AbortController();
    const pending = client({ timeoutMs: 5_000 }).listPixKeys({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('follows cursor.next across pages until it is null', async () => {
    server.handle((req, res) => {
      const cursor = new URL(req.url ?? '', server.url).searchParams.get('cursor');
      const next = cursor === null ? 'p2' : cursor === 'p2' ? 'p3' : null;
      json(res, 200, page(next));
    });
    const keys = [];
    for await (const key of client().pixKeys({ limit: 2 })) keys.push(key);
    expect(keys).toHaveLength(6);
    expect(server.requests.map((r) => new URL(r.url, server.url).searchParams.get('cursor'))).toEqual([
      null,
      'p2',
      'p3',
    ]);
    expect(server.requests.every((r) => r.url.includes('limit=2'))).toBe(true);
  });

  it('fetches no further page once the loop breaks, and stops at maxPages', async () => {
    let served = 0;
    server.handle((_req, res) => json(res, 200, page(`p${++served}`)));
    for await (const key of client().pixKeys()) {
      void key;
      break;
    }
    expect(server.requests).toHaveLength(1);
    const keys = [];
    for await (const key of client().pixKeys({ maxPages: 3 })) keys.push(key);
    expect(keys).toHaveLength(6);
    expect(server.requests).toHaveLength(4);
  });

  it('stops with a clear error when the server repeats a cursor', async () => {
    server.handle((_req, res) => json(res, 200, page('same')));
    const walk = async () => {
      for await (const key of client().pixKeys()) void key;
    };
    await expect(walk()).rejects.toThrow(/must not repeat an earlier cursor.*endless loop/);
    expect(server.requests).toHaveLength(2);
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).operation).toBe('listPixKeys');
  });

  it('an iterator closed before its first page (the walker not loaded yet) fetches nothing, then or later', async () => {
    server.handle((_req, res) => json(res, 200, page('p2')));
    const iterator = client().pixKeys()[Symbol.asyncIterator]();
    await expect(iterator.return!()).resolves.toEqual({ value: undefined, done: true });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    expect(server.requests).toHaveLength(0);
  });

  it('passes unknown key_type, key_status and extra properties through', async () => {
    const [key] = firstPageKeys();
    const odd = { ...key!, key_type: 'nfc_tag', key_status: 'pending_portability', loyalty_tier: 'gold' };
    server.handle((_req, res) => json(res, 200, { cursor: { next: null, total: 1 }, data: [odd], meta: {} }));
    const result = await client().listPixKeys();
    expect(result.data[0]).toEqual(odd);
  });

  it('sends the token, the User-Agent and the accept header on every request', async () => {
    let calls = 0;
    server.handle((_req, res) => json(res, 200, page(null)));
    const c = client({ token: () => `rotating-token-${++calls}`, userAgent: 'acme-payments/1.4.2' });
    await c.listPixKeys();
    await c.listPixKeys();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer rotating-token-1',
      'Bearer rotating-token-2',
    ]);
    expect(server.requests.map((r) => r.headers['user-agent'])).toEqual(['acme-payments/1.4.2', 'acme-payments/1.4.2']);
    expect(server.requests[0]?.headers.accept).toContain('application/problem+json');
  });

  it('succeeds on an empty 200 and on 204 for the update', async () => {
    const input = { account: '300541976902', documentNumber: '52998224725', body: { socialName: 'Maria' } };
    server.handle((_req, res) => res.writeHead(200).end());
    await expect(client().updateNaturalPerson(input)).resolves.toBeUndefined();
    server.handle((_req, res) => res.writeHead(204).end());
    await expect(client().updateNaturalPerson(input)).resolves.toBeUndefined();
    server.handle((_req, res) => json(res, 200, { anything: true }));
    await expect(client().updateNaturalPerson(input)).resolves.toEqual({ anything: true });
  });
});

describe('Retry-After (fake timers)', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    ['seconds', () => '2'],
    ['an HTTP date', () => new Date(Date.now() + 2_000).toUTCString()],
  ])('waits Retry-After given in %s, then retries once', async (_form, retryAfter) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    // A whole second, so an HTTP date (second precision) means exactly 2 s from now.
    vi.setSystemTime(new Date('2026-11-22T12:00:00.000Z'));
    const fetchMock = vi
      .fn<(url: string, init: RequestInit) => Promise<Response>>()
      .mockImplementationOnce(
        async () =>
          new Response('{"title":"Too many requests"}', {
            status: 429,
            headers: { 'retry-after': retryAfter(), 'content-type': 'application/problem+json' },
          }),
      )
      .mockImplementationOnce(async () => Response.json({ cursor: { next: null }, data: [] }));
    const c = createBaasClient({ baseUrl: 'https://api.test', token: 'fake-timer-token', fetch: fetchMock });
    const result = c.listPixKeys();
    await vi.advanceTimersByTimeAsync(1_990);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20);
    await expect(result).resolves.toEqual({ cursor: { next: null }, data: [] });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
