// `createRawClient` and `client.raw` load openapi-fetch on their first request (it is not in the
// entry's size budget), so until then `use` and `eject` are queued. What a caller sees must not
// change: middleware order, eject, openapi-fetch's own refusal of a bad middleware, every method,
// and the global fetch taken at creation as openapi-fetch takes it.
import createClient, { type Middleware } from 'openapi-fetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRawClient } from '../../src/client/raw.js';
import { createBaasClient } from '../../src/index.js';

const LIST = '/v2/api/pix/keys/list-keys';
const PAGE = { cursor: { next: null }, data: [] };
const ok = () => new Response(JSON.stringify(PAGE), { status: 200, headers: { 'content-type': 'application/json' } });

/** A fetch that records each Request it gets. */
function recorder() {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return ok();
  };
  return { requests, fetch };
}

/** A middleware that appends its name to the `X-Trail` header, to read the order they ran in. */
const trail = (name: string, seen?: string[]): Middleware => ({
  onRequest({ request }) {
    seen?.push(`${name}:${request.headers.get('authorization') ?? '-'}`);
    request.headers.set('X-Trail', [request.headers.get('X-Trail'), name].filter(Boolean).join(','));
    return request;
  },
});

afterEach(() => vi.unstubAllGlobals());

describe('createRawClient before and after openapi-fetch loads', () => {
  it('runs auth and User-Agent first, then the option middleware, then what was `use`d before the first call, in order', async () => {
    const { requests, fetch } = recorder();
    const seen: string[] = [];
    const client = createRawClient({ baseUrl: 'http://127.0.0.1:1', token: 't0k', userAgent: 'app/1', fetch, middleware: [trail('option', seen)] });
    client.use(trail('first', seen), trail('second', seen));
    const { data } = await client.GET(LIST, { params: { header: { 'User-Agent': 'app/1' } } });
    expect(data).toEqual(PAGE);
    expect(requests[0]?.headers.get('x-trail')).toBe('option,first,second');
    // Auth ran before every middleware of the caller.
    expect(seen).toEqual(['option:Bearer t0k', 'first:Bearer t0k', 'second:Bearer t0k']);
    expect(requests[0]?.headers.get('user-agent')).toBe('app/1');
    expect(requests[0]?.headers.get('accept')).toBe('application/json, application/problem+json');
  });

  it('ejects queued middleware before the first call, and forwards use/eject once loaded', async () => {
    const { requests, fetch } = recorder();
    const gone = trail('gone');
    const late = trail('late');
    const client = createRawClient({ baseUrl: 'http://127.0.0.1:1', fetch });
    client.use(trail('kept'), gone);
    client.eject(gone);
    await client.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    expect(requests[0]?.headers.get('x-trail')).toBe('kept');
    client.use(late);
    await client.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    expect(requests[1]?.headers.get('x-trail')).toBe('kept,late');
    client.eject(late);
    await client.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    expect(requests[2]?.headers.get('x-trail')).toBe('kept');
  });

  it('takes middleware `use`d while openapi-fetch is still loading', async () => {
    const { requests, fetch } = recorder();
    const client = createRawClient({ baseUrl: 'http://127.0.0.1:1', fetch });
    const first = client.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    client.use(trail('during'));
    await first;
    await client.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    expect(requests[1]?.headers.get('x-trail')).toBe('during');
  });

  it("refuses a middleware that is not one, at `use`, with openapi-fetch's own message, before and after loading", async () => {
    const { fetch } = recorder();
    const client = createRawClient({ baseUrl: 'http://127.0.0.1:1', fetch });
    const bad = { onSomething() {} } as unknown as Middleware;
    let before: unknown;
    try {
      client.use(bad);
    } catch (error) {
      before = error;
    }
    expect(before).toBeInstanceOf(Error);
    await client.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    let after: unknown;
    try {
      client.use(bad);
    } catch (error) {
      after = error;
    }
    expect((before as Error).message).toBe((after as Error).message);
    expect((before as Error).message).toMatch(/Middleware must be an object/);
  });

  it('answers every method and `request` as an eagerly created openapi-fetch client does', async () => {
    const methods = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;
    // Each outcome as text: the method the fetch saw, or the error (Node's Request refuses TRACE).
    const outcomes = async (client: unknown, requests: Request[]) => {
      const untyped = client as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const seen: string[] = [];
      const settle = (p: Promise<unknown>) => p.then(() => `sent ${requests.at(-1)?.method}`, (e: Error) => `${e.name}: ${e.message}`);
      for (const method of methods) seen.push(await settle(untyped[method]!('/anything', { parseAs: 'text' })));
      seen.push(await settle(untyped.request!('get', LIST, { params: { header: { 'User-Agent': 'x/1' } } })));
      return seen;
    };
    const lazy = recorder();
    const eager = recorder();
    const expected = await outcomes(createClient({ baseUrl: 'http://127.0.0.1:1', fetch: eager.fetch }), eager.requests);
    const actual = await outcomes(createRawClient({ baseUrl: 'http://127.0.0.1:1', fetch: lazy.fetch }), lazy.requests);
    expect(actual).toEqual(expected);
    expect(actual.filter((o) => o.startsWith('sent'))).toEqual(['sent GET', 'sent PUT', 'sent POST', 'sent DELETE', 'sent OPTIONS', 'sent HEAD', 'sent PATCH', 'sent GET']);
  });

  it('uses the global fetch of the moment it was created, as openapi-fetch does', async () => {
    const atCreation = vi.fn(async () => ok());
    const later = vi.fn(async () => ok());
    vi.stubGlobal('fetch', atCreation);
    const client = createRawClient({ baseUrl: 'http://127.0.0.1:1' });
    vi.stubGlobal('fetch', later);
    await client.GET(LIST, { params: { header: { 'User-Agent': 'x/1' } } });
    expect(atCreation).toHaveBeenCalledTimes(1);
    expect(later).not.toHaveBeenCalled();
  });
});

describe('client.raw', () => {
  it("queues middleware until its first call and runs it after the client's auth", async () => {
    const calls: string[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      calls.push(`${url} ${new Headers(init.headers).get('authorization')} ${new Headers(init.headers).get('x-trail')}`);
      return ok();
    };
    const client = createBaasClient({ baseUrl: 'http://127.0.0.1:1', token: 'tok-1', fetch, retry: false });
    client.raw.use(trail('mine'));
    const { data } = await client.raw.GET(LIST, { params: { header: { 'User-Agent': 'x/1' }, query: { limit: 2 } } });
    expect(data).toEqual(PAGE);
    expect(calls).toEqual([`http://127.0.0.1:1${LIST}?limit=2 Bearer tok-1 mine`]);
  });
});
