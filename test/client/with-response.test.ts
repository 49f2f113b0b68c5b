// A successful call's metadata without an event listener: `.withResponse()` on what a typed method
// returns gives the data with the final answer's status, header fields, request id, rate-limit state
// and attempts — masked like an error's fields — while awaiting the method alone still gives the data.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BaasApiError, BaasValidationError, createBaasClient, type BaasClientOptions } from '../../src/index.js';
import type { FetchLike } from '../../src/fetch.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF, firstPageKeys } from '../support/fixtures.js';

const BASE = 'https://api.example.test';
const page = () => ({ cursor: { next: null }, data: firstPageKeys() });
const update = { account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: { socialName: 'Maria' } };

/** A fetch giving each answer of `answers` in turn (the last one again after), counting requests. */
function answering(...answers: Array<() => Response>) {
  let sent = 0;
  const fetch: FetchLike = async () => {
    const answer = answers[Math.min(sent, answers.length - 1)]!;
    sent += 1;
    return answer();
  };
  return { fetch, sent: () => sent };
}

const client = (fetch: FetchLike, options: Partial<BaasClientOptions> = {}) =>
  createBaasClient({ baseUrl: BASE, token: SECRET_TOKEN, retry: false, fetch, ...options });

describe('withResponse on a successful call', () => {
  it('gives the data the call resolves with, the status, the request id and the IETF rate-limit state', async () => {
    const server = answering(() =>
      Response.json(page(), {
        headers: {
          'X-Request-Id': 'req-42',
          RateLimit: '"default";r=49;t=42',
          'RateLimit-Policy': '"default";q=100;w=60',
          ETag: '"v1"',
        },
      }),
    );
    const baas = client(server.fetch);
    const result = await baas.listPixKeys({ limit: 5 }).withResponse();
    expect(result.data).toEqual(await baas.listPixKeys({ limit: 5 }));
    expect(result.requestId).toBe('req-42');
    expect(result.rateLimit).toEqual({
      source: 'ietf',
      policy: 'default',
      limit: 100,
      remaining: 49,
      resetSeconds: 42,
      windowSeconds: 60,
    });
    expect(result.response.status).toBe(200);
    expect(result.response.headers.etag).toBe('"v1"');
    expect(result.response.headers['x-request-id']).toBe('req-42');
    expect(result.attempts).toBe(1);
  });

  it('reads X-RateLimit-* fields, and says undefined when the answer has no request id or rate limit', async () => {
    const limited = answering(() =>
      Response.json(page(), { headers: { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '3' } }),
    );
    const { rateLimit } = await client(limited.fetch).listPixKeys().withResponse();
    expect(rateLimit).toEqual({ source: 'separate-fields', limit: 10, remaining: 3 });

    const bare = answering(() => Response.json(page()));
    const plain = await client(bare.fetch).listPixKeys().withResponse();
    expect(plain.requestId).toBeUndefined();
    expect(plain.rateLimit).toBeUndefined();
  });

  it('an update answered 204 gives undefined data and status 204', async () => {
    const server = answering(() => new Response(null, { status: 204, headers: { 'X-Request-Id': 'upd-1' } }));
    const result = await client(server.fetch).updateNaturalPerson(update).withResponse();
    expect(result).toMatchObject({ data: undefined, requestId: 'upd-1', response: { status: 204 } });
  });

  it('describes the final answer after a retry, counting every attempt', async () => {
    const server = answering(
      () => new Response('busy', { status: 503, headers: { 'X-Request-Id': 'first' } }),
      () => Response.json(page(), { headers: { 'X-Request-Id': 'second' } }),
    );
    const baas = client(server.fetch, { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const result = await baas.listPixKeys().withResponse();
    expect(server.sent()).toBe(2);
    expect(result).toMatchObject({ requestId: 'second', attempts: 2, response: { status: 200 } });
  });

  it('masks the token and the CPF a server echoes in its header names and values, on every surface', async () => {
    const server = answering(
      () =>
        new Response(null, {
          status: 204,
          headers: {
            'X-Request-Id': `id-${SECRET_TOKEN}`,
            'X-Echo': `Bearer ${SECRET_TOKEN}`,
            'X-Customer': '529.982.247-25',
            [`x-${VALID_CPF}`]: 'name',
            RateLimit: `"${VALID_CPF}";r=1;t=1`,
          },
        }),
    );
    const result = await client(server.fetch).updateNaturalPerson(update).withResponse();
    for (const shown of [
      JSON.stringify(result),
      inspect(result, { depth: 10 }),
      String(Object.keys(result.response.headers)),
    ]) {
      expect(shown).not.toContain(SECRET_TOKEN);
      expect(shown).not.toContain(VALID_CPF);
      expect(shown).not.toContain('529.982.247');
    }
    expect(result.rateLimit?.remaining).toBe(1);
    expect(result.response.headers['x-customer']).toMatch(/25$/);
  });

  it('bounds a huge header value as an error bounds provider text', async () => {
    const server = answering(() =>
      Response.json(page(), { headers: { 'X-Request-Id': 'r'.repeat(6000), 'X-Note': 'n'.repeat(6000) } }),
    );
    const result = await client(server.fetch).listPixKeys().withResponse();
    expect(result.requestId!.length).toBeLessThan(1100);
    expect(result.requestId).toMatch(/^r+… \(\d+ more characters\)$/);
    expect(result.response.headers['x-note']!.length).toBeLessThan(1100);
  });

  it('keeps a header named __proto__ a plain member', async () => {
    const server = answering(() => Response.json(page(), { headers: [['__proto__', 'x']] }));
    const { response } = await client(server.fetch).listPixKeys().withResponse();
    expect(Object.getPrototypeOf(response.headers)).toBe(Object.prototype);
    expect(Object.hasOwn(response.headers, '__proto__')).toBe(true);
  });
});

describe('withResponse on a failed call', () => {
  it('rejects with the error the call rejects with: BaasValidationError before sending, BaasApiError after', async () => {
    const server = answering(() => Response.json({ title: 'Not Found', status: 404 }, { status: 404 }));
    const baas = client(server.fetch);
    await expect(baas.listPixKeys({ limit: 0 }).withResponse()).rejects.toBeInstanceOf(BaasValidationError);
    expect(server.sent()).toBe(0);
    const failure = await baas
      .listPixKeys()
      .withResponse()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BaasApiError);
    expect((failure as BaasApiError).status).toBe(404);
  });

  it('leaves no unhandled rejection when only withResponse is followed', async () => {
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    try {
      const server = answering(() => new Response('gone', { status: 410 }));
      await expect(client(server.fetch).listPixKeys().withResponse()).rejects.toBeInstanceOf(BaasApiError);
      // Unhandled rejections are reported after the microtask queue drains: give it a macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });
});

describe('the promise a typed method returns', () => {
  it('is a Promise that Promise.all, catch and finally treat as the call', async () => {
    const server = answering(
      () => Response.json(page()),
      () => new Response('gone', { status: 410 }),
    );
    const baas = client(server.fetch);
    const first = baas.listPixKeys();
    expect(first).toBeInstanceOf(Promise);
    const [data] = await Promise.all([first]);
    expect(data.data).toHaveLength(page().data.length);
    let settled = false;
    const caught = await baas
      .listPixKeys()
      .finally(() => {
        settled = true;
      })
      .catch((error: unknown) => error);
    expect(settled).toBe(true);
    expect(caught).toBeInstanceOf(BaasApiError);
  });

  it('sends the call once whether it is awaited, asked withResponse, or both', async () => {
    const server = answering(() => Response.json(page()));
    const call = client(server.fetch).listPixKeys();
    const [data, result] = await Promise.all([call, call.withResponse()]);
    expect(result.data).toBe(data);
    expect(server.sent()).toBe(1);
  });
});
