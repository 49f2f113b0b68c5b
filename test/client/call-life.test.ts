// One call's whole life: the caller's signal, the attempt timers, the token source and per-call
// options, for the typed operations and for `raw` alike. Each case here was a reproduced bug.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaasApiError,
  BaasAuthError,
  BaasError,
  BaasTimeoutError,
  createBaasClient,
  type BaasClientOptions,
} from '../../src/index.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { SECRET_TOKEN, firstPageKeys } from '../support/fixtures.js';
import { settleWithin } from '../support/reliability.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const page = { cursor: { next: null }, data: firstPageKeys() };
const LIST = '/v2/api/pix/keys/list-keys';
const client = (options: Partial<BaasClientOptions> = {}) =>
  createBaasClient({ baseUrl: server.url, token: SECRET_TOKEN, timeoutMs: 3_000, retry: false, ...options });
/** Timers alive in this process (Node's own resource list). */
const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

describe('raw honours the call life', () => {
  it("rejects with the caller's abort reason, not a BaasTimeoutError after timeoutMs", async () => {
    server.handle(() => undefined);
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 50);
    const outcome = await settleWithin(
      client().raw.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } }, signal: controller.signal }),
      1_500,
    );
    expect(outcome.kind).toBe('error');
    expect(outcome.kind === 'error' && outcome.error).toBe(reason);
  });

  it('leaves no attempt timer running once the call settled', async () => {
    server.handle((_req, res) => json(res, 200, page));
    const before = timers();
    const { data } = await client({ timeoutMs: 60_000 }).raw.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    expect(data?.data).toHaveLength(page.data.length);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('a typed call also leaves no timer', async () => {
    server.handle((_req, res) => json(res, 200, page));
    const before = timers();
    await client({ timeoutMs: 60_000 }).listPixKeys();
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe('the token source', () => {
  it('a token function that throws is a BaasAuthError with the cause, redacted', async () => {
    server.handle((_req, res) => json(res, 200, page));
    let calls = 0;
    // The first token works; the refresh fails with a message that echoes it.
    const refreshing = async (): Promise<string> => {
      calls += 1;
      if (calls === 1) return SECRET_TOKEN;
      throw new Error(`idp down, could not refresh ${SECRET_TOKEN}`);
    };
    const baas = client({ token: refreshing });
    await baas.listPixKeys();
    const error = await baas.listPixKeys().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect(error).toBeInstanceOf(BaasError);
    expect((error as BaasAuthError).message).toMatch(/token source failed/);
    const cause = (error as BaasAuthError).cause as Error;
    expect(cause.message).toContain('idp down');
    for (const form of [cause.message, cause.stack ?? '', JSON.stringify(error), String(error)])
      expect(form).not.toContain(SECRET_TOKEN);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['undefined', undefined, /not a string/],
    ['an empty string', '', /empty/],
    ['blanks', '   ', /empty/],
    ['a CR/LF', `${SECRET_TOKEN}\r\nX-Injected: 1`, /control character/],
    ['a number', 42, /not a string/],
  ])(
    'a token function resolving %s is refused before sending, naming the problem, not the value',
    async (_what, value, problem) => {
      server.handle((_req, res) => json(res, 200, page));
      const error = await client({ token: async () => value as string })
        .listPixKeys()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BaasAuthError);
      expect((error as BaasAuthError).message).toMatch(problem);
      expect(JSON.stringify(error)).not.toContain(SECRET_TOKEN);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('raw refuses a bad token the same way', async () => {
    server.handle((_req, res) => json(res, 200, page));
    const error = await client({ token: () => '' })
      .raw.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('per-call options', () => {
  it('timeoutMs per call is a BaasTimeoutError, like the client option', async () => {
    server.handle(() => undefined);
    const error = await client({ timeoutMs: 60_000 })
      .listPixKeys({ timeoutMs: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTimeoutError);
    expect((error as BaasTimeoutError).timeoutMs).toBe(100);
  });

  it("a caller's AbortSignal.timeout() keeps its own reason (a DOMException named TimeoutError)", async () => {
    server.handle(() => undefined);
    const error = await client()
      .listPixKeys({ signal: AbortSignal.timeout(100) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
  });

  it('retry per call: false turns retries off, a number of attempts turns them on', async () => {
    server.handle((_req, res) => json(res, 503, { type: 'about:blank', title: 'down', status: 503 }));
    const retrying = client({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(retrying.listPixKeys({ retry: false })).rejects.toMatchObject({ status: 503, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    server.handle((_req, res) => json(res, 503, { type: 'about:blank', title: 'down', status: 503 }));
    await expect(
      client().listPixKeys({ retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } }),
    ).rejects.toMatchObject({ attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('extra headers per call are sent, and cannot replace Authorization', async () => {
    server.handle((_req, res) => json(res, 200, page));
    await client().listPixKeys({ headers: { 'X-Correlation-Id': 'abc-123', Authorization: 'Bearer other' } });
    expect(server.requests[0]?.headers['x-correlation-id']).toBe('abc-123');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
  });
});

describe('per-call headers that are not HTTP', () => {
  it('a CR/LF in a value or a bad name is a BaasValidationError, nothing sent, the value not shown', async () => {
    server.handle((_req, res) => json(res, 200, page));
    const injected = `abc\r\nX-Injected: ${SECRET_TOKEN}`;
    await expect(client().listPixKeys({ headers: { 'X-Trace': injected } })).rejects.toMatchObject({
      kind: 'validation',
      attempts: 0,
    });
    const error = await client()
      .listPixKeys({ headers: { 'X-Trace': injected } })
      .catch((e: unknown) => e);
    expect(JSON.stringify(error)).not.toContain(SECRET_TOKEN);
    await expect(client().listPixKeys({ headers: { 'Bad Name': 'x' } })).rejects.toMatchObject({ kind: 'validation' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('every error carries attempts and the last request id', () => {
  it('a BaasTimeoutError after a 503 with a request id', async () => {
    server.handle((_req, res) =>
      server.requests.length === 1
        ? json(res, 503, { type: 'about:blank', status: 503 }, { 'x-request-id': 'req-503' })
        : undefined,
    );
    const error = await client({ timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } })
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTimeoutError);
    expect(error).toMatchObject({ attempts: 2, requestId: 'req-503' });
  });

  it('a BaasApiError and a BaasResponseError', async () => {
    server.handle((_req, res) => json(res, 404, { type: 'about:blank', status: 404 }, { 'x-request-id': 'req-404' }));
    const api = await client()
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(api).toBeInstanceOf(BaasApiError);
    expect(api).toMatchObject({ attempts: 1, requestId: 'req-404' });
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html', 'x-request-id': 'req-html' }).end('<html></html>'),
    );
    await expect(client().listPixKeys()).rejects.toMatchObject({
      kind: 'response',
      attempts: 1,
      requestId: 'req-html',
    });
  });

  it('a BaasValidationError: nothing sent, 0 attempts', async () => {
    await expect(client().listPixKeys({ limit: 0 })).rejects.toMatchObject({ kind: 'validation', attempts: 0 });
  });
});
