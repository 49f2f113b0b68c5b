// `client.raw` (openapi-fetch building the request, the call owner sending it through the transport),
// with an injected fetch: what is sent and what comes back for each kind of answer.
import type { Middleware } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/fetch.js';
import { BaasNetworkError, createBaasClient } from '../../src/index.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';

const BASE = 'https://api.example.test';
const LIST = '/v2/api/pix/keys/list-keys';
const UPDATE = '/v2/api/baas-onboarding/account/natural-person';
const PAGE = { cursor: { next: null }, data: [] };
const UA = { params: { header: { 'User-Agent': 'x/1' } } } as const;

/** A FetchLike answering with `answer`, recording url, init and headers. */
function recording(answer: () => Response = () => Response.json(PAGE)) {
  const calls: Array<{ url: string; init: RequestInit; headers: Record<string, string> }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init, headers: { ...(init.headers as Record<string, string>) } });
    return answer();
  };
  return { fetch, calls };
}

const baas = (fetch: FetchLike) =>
  createBaasClient({ baseUrl: BASE, token: SECRET_TOKEN, userAgent: 'my-app/3', retry: false, fetch });

describe('client.raw: what is sent', () => {
  it("a GET: the client's token, Accept and User-Agent, openapi-fetch's URL, no body", async () => {
    const server = recording();
    const { data, response } = await baas(server.fetch).raw.GET(LIST, {
      params: { header: { 'User-Agent': 'my-app/3' }, query: { limit: 3 } },
    });
    expect(data).toEqual(PAGE);
    expect(response.status).toBe(200);
    expect(server.calls[0]?.url).toBe(`${BASE}${LIST}?limit=3`);
    expect(server.calls[0]?.init.method).toBe('GET');
    expect(server.calls[0]?.init.body).toBeNull();
    expect(server.calls[0]?.headers).toEqual({
      accept: 'application/json, application/problem+json',
      'user-agent': 'my-app/3',
      Authorization: `Bearer ${SECRET_TOKEN}`,
    });
  });

  it('an Authorization set by a middleware of the caller is dropped: the client token goes', async () => {
    const server = recording();
    const client = baas(server.fetch);
    client.raw.use({
      onRequest({ request }) {
        request.headers.set('Authorization', 'Bearer someone-else');
        return request;
      },
    });
    await client.raw.GET(LIST, UA);
    expect(Object.entries(server.calls[0]!.headers).filter(([name]) => name.toLowerCase() === 'authorization')).toEqual(
      [['Authorization', `Bearer ${SECRET_TOKEN}`]],
    );
  });

  it('a PUT: its JSON body, as bytes, with its Content-Type', async () => {
    const server = recording(() => Response.json({ version: '1.0.0', status: 'SUCCESS' }));
    const { data } = await baas(server.fetch).raw.PUT(UPDATE, {
      params: { query: { Account: VALID_ACCOUNT, DocumentNumber: VALID_CPF } },
      body: { socialName: 'Maria' },
    });
    expect(data).toEqual({ version: '1.0.0', status: 'SUCCESS' });
    expect(server.calls[0]?.init.method).toBe('PUT');
    expect(new TextDecoder().decode(server.calls[0]?.init.body as ArrayBuffer)).toBe('{"socialName":"Maria"}');
    expect(server.calls[0]?.headers['content-type']).toBe('application/json');
  });
});

describe('client.raw: what comes back', () => {
  // A null-body status: the call must not build a Response with a body for it (that throws).
  it.each([204, 205, 304])('a %i: no data, no error content, its status and headers', async (code) => {
    const server = recording(
      () => new Response(null, { status: code, statusText: 'Nothing', headers: { 'x-request-id': 'req-7' } }),
    );
    const { data, error, response } = await baas(server.fetch).raw.GET(LIST, UA);
    expect(data).toBeUndefined();
    // openapi-fetch gives a 304 (not ok) its empty text as `error`.
    expect(error || undefined).toBeUndefined();
    expect(response.status).toBe(code);
    expect(response.statusText).toBe('Nothing');
    expect(response.headers.get('x-request-id')).toBe('req-7');
  });

  it('an error answer is its parsed error, with the status', async () => {
    const server = recording(() =>
      Response.json({ title: 'Bad', status: 400 }, { status: 400, statusText: 'Bad Request' }),
    );
    const { data, error, response } = await baas(server.fetch).raw.GET(LIST, UA);
    expect(data).toBeUndefined();
    expect(error).toEqual({ title: 'Bad', status: 400 });
    expect([response.status, response.statusText]).toEqual([400, 'Bad Request']);
  });

  it('a network failure is a BaasNetworkError of the raw operation, naming the URL', async () => {
    const fetch: FetchLike = async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    };
    const error = await baas(fetch)
      .raw.GET(LIST, UA)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).message).toBe(
      `raw: network failure (ECONNREFUSED) after 1 attempt (GET ${BASE}${LIST})`,
    );
  });
});

describe('client.raw: middleware', () => {
  it("runs the caller's middleware after the client's auth", async () => {
    const { fetch, calls } = recording();
    const client = baas(fetch);
    client.raw.use(trail('mine'));
    await client.raw.GET(LIST, { params: { header: { 'User-Agent': 'x/1' }, query: { limit: 2 } } });
    expect(calls.map((c) => [c.url, c.headers.Authorization, c.headers['x-trail']])).toEqual([
      [`${BASE}${LIST}?limit=2`, `Bearer ${SECRET_TOKEN}`, 'mine'],
    ]);
  });
});

/** A middleware that appends its name to `X-Trail` (to read the order they ran in) and notes the Authorization it saw. */
function trail(name: string, seen?: string[]): Middleware {
  return {
    onRequest({ request }) {
      seen?.push(`${name}:${request.headers.get('authorization') ?? '-'}`);
      request.headers.set('X-Trail', [request.headers.get('X-Trail'), name].filter(Boolean).join(','));
      return request;
    },
  };
}
