// maxResponseBytes: every answer the client reads (typed operations and `raw`, success and error) is
// counted while it streams; past the limit the read stops, the source is cancelled and the call ends
// with a BaasResponseError naming the operation and the limit, not retried. Sources count what they
// gave, so nothing here measures memory or time.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shownBytes } from '../../src/body-limit.js';
import type { FetchLike } from '../../src/fetch.js';
import { createBaasClient, BaasResponseError, BaasTimeoutError, type BaasClientOptions } from '../../src/index.js';
import { endlessBody } from '../support/endless-body.js';
import { startFaultServer, type FaultServer } from '../support/fault-server.js';
import { SECRET_TOKEN } from '../support/fixtures.js';

const BASE = 'https://api.example.test';
const LIST = '/v2/api/pix/keys/list-keys';
const CHUNK = 512;

/** A fetch answering every request with an endless body of this status; `sources` keeps each body's counts. */
function endlessFetch(status = 200, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const sources: ReturnType<typeof endlessBody>['seen'][] = [];
  const fetch = vi.fn<FetchLike>(async () => {
    const { body, seen } = endlessBody(CHUNK);
    sources.push(seen);
    return new Response(body, { status, headers });
  });
  return { fetch, sources };
}

const client = (fetch: FetchLike, options: Partial<BaasClientOptions> = {}) =>
  createBaasClient({ baseUrl: BASE, token: SECRET_TOKEN, fetch, ...options });

/** The BaasResponseError a rejected call ends with, checked for what every size refusal says. */
async function sizeError(
  call: Promise<unknown>,
  operation: string,
  limit: number,
  status: number,
): Promise<BaasResponseError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BaasResponseError);
  const refused = error as BaasResponseError;
  expect(refused.kind).toBe('response');
  expect(refused.operation).toBe(operation);
  expect(refused.limitBytes).toBe(limit);
  expect(refused.status).toBe(status);
  // The limit as sizes are shown (src/body-limit.ts: shownBytes, in units the CPF masking leaves whole).
  expect(refused.message).toContain(`maxResponseBytes (${shownBytes(limit)})`);
  expect(refused.message.startsWith(`${operation}: `)).toBe(true);
  return refused;
}

describe('typed operations', () => {
  it('an endless 200 stops at the limit: BaasResponseError, one attempt, the source cancelled', async () => {
    const server = endlessFetch();
    const error = await sizeError(
      client(server.fetch, { maxResponseBytes: 4_096 }).listPixKeys(),
      'listPixKeys',
      4_096,
      200,
    );
    expect(error.attempts).toBe(1);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(server.sources[0]!.bytes).toBeLessThanOrEqual(4_096 + CHUNK);
    expect(server.sources[0]!.cancelled).toBe(true);
  });

  it('an endless error body (422) is bounded the same way, the BaasResponseError keeping the status', async () => {
    const server = endlessFetch(422, { 'content-type': 'application/problem+json' });
    const error = await sizeError(
      client(server.fetch, { maxResponseBytes: 2_048 }).updateNaturalPerson({
        account: '300541976902',
        documentNumber: '52998224725',
        body: { email: 'a@b.com.br' },
      }),
      'updateNaturalPerson',
      2_048,
      422,
    );
    expect(error.contentType).toBe('application/problem+json');
    expect(server.sources[0]!.bytes).toBeLessThanOrEqual(2_048 + CHUNK);
    expect(server.sources[0]!.cancelled).toBe(true);
  });

  it('is not retried: a final 503 whose body is too large ends the call at that attempt', async () => {
    const server = endlessFetch(503);
    const error = await sizeError(
      client(server.fetch, {
        maxResponseBytes: 1_024,
        retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 },
      }).listPixKeys(),
      'listPixKeys',
      1_024,
      503,
    );
    // The first 503 was retried as any 503 is (its body dropped unread); the second was read and refused.
    expect(error.attempts).toBe(2);
    expect(server.fetch).toHaveBeenCalledTimes(2);
    expect(server.sources.map((seen) => seen.cancelled)).toEqual([true, true]);
  });

  it("a call's own maxResponseBytes wins over the client's", async () => {
    const server = endlessFetch();
    await sizeError(
      client(server.fetch, { maxResponseBytes: 1_000_000 }).listPixKeys({ maxResponseBytes: 700 }),
      'listPixKeys',
      700,
      200,
    );
    expect(server.sources[0]!.bytes).toBeLessThanOrEqual(700 + CHUNK);
  });

  it('is 10 MiB by default: a declared Content-Length one byte over is refused before any byte is read', async () => {
    const server = endlessFetch(200, {
      'content-type': 'application/json',
      'content-length': String(10 * 1024 * 1024 + 1),
    });
    await sizeError(client(server.fetch).listPixKeys(), 'listPixKeys', 10 * 1024 * 1024, 200);
    expect(server.sources[0]!.chunks).toBe(0);
  });

  it('an answer of exactly the limit is read as usual', async () => {
    const page = JSON.stringify({ data: [], cursor: { next: null } });
    const fetch: FetchLike = async () => new Response(page, { headers: { 'content-type': 'application/json' } });
    expect(await client(fetch, { maxResponseBytes: page.length }).listPixKeys()).toEqual({
      data: [],
      cursor: { next: null },
    });
    await sizeError(
      client(fetch, { maxResponseBytes: page.length - 1 }).listPixKeys(),
      'listPixKeys',
      page.length - 1,
      200,
    );
  });

  it("the attempt's timer still ends a body that stalls under the limit", async () => {
    const fetch: FetchLike = async (_url, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(10).fill(0x7b));
          // The stream errors when the attempt is aborted, as a real fetch's body does.
          init.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    };
    const error = await client(fetch, { maxResponseBytes: 1_000, timeoutMs: 20, retry: false })
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTimeoutError);
  });
});

describe('raw', () => {
  it('an endless answer to client.raw stops at the limit: BaasResponseError of operation raw, the source cancelled', async () => {
    const server = endlessFetch();
    const baas = client(server.fetch, { maxResponseBytes: 3_000 });
    const error = await sizeError(
      baas.raw.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } }),
      'raw',
      3_000,
      200,
    );
    expect(error.attempts).toBe(1);
    expect(server.sources[0]!.bytes).toBeLessThanOrEqual(3_000 + CHUNK);
    expect(server.sources[0]!.cancelled).toBe(true);
  });

  it('an answer within the limit reaches openapi-fetch whole', async () => {
    const fetch: FetchLike = async () => Response.json({ data: [], cursor: { next: null } });
    const { data } = await client(fetch, { maxResponseBytes: 100 }).raw.GET(LIST, {
      params: { header: { 'User-Agent': 'x/1' } },
    });
    expect(data).toEqual({ data: [], cursor: { next: null } });
  });
});

describe('over HTTP (127.0.0.1), with the global fetch', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(() => server.close());

  it('a server streaming a huge body is cut off at the limit: the connection closes before it is all sent', async () => {
    // 64 MiB stands for "without end"; a client that ignored the limit would read it all and fail
    // on the JSON instead, without filling the machine's memory.
    const total = 64 * 1024 * 1024;
    let finished: (whole: boolean) => void = () => undefined;
    const serverDone = new Promise<boolean>((resolve) => (finished = resolve));
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x7b);
      let sent = 0;
      const write = (): void => {
        while (!response.destroyed && sent < total) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        if (!response.destroyed) response.end();
      };
      response.once('close', () => finished(response.writableFinished));
      write();
    });
    const baas = createBaasClient({ baseUrl: server.url, token: SECRET_TOKEN, maxResponseBytes: 256 * 1024 });
    await sizeError(baas.listPixKeys(), 'listPixKeys', 256 * 1024, 200);
    expect(await serverDone).toBe(false);
  });
});
