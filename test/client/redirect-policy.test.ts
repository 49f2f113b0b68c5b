// The redirect policy (src/transport/redirect.ts), rule by rule, with an injected fetch: it guards where
// the bearer token goes. A 3xx is followed only for GET and HEAD, only to the same origin (scheme,
// host and port), at most 5 times; anything else comes back as the 3xx itself.
import { describe, expect, it } from 'vitest';
import {
  BaasApiError,
  BaasNetworkError,
  BaasResponseError,
  createBaasClient,
  type BaasClientOptions,
} from '../../src/index.js';
import { fetchFollowingRedirects } from '../../src/transport/redirect.js';
import type { FetchLike } from '../../src/fetch.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF, firstPageKeys } from '../support/fixtures.js';

const START = 'https://api.example.test/v2/api/pix/keys/list-keys?limit=2';

/** A fetch that answers each request with the next of `answers` and records what it was called with. */
function scripted(...answers: Array<(url: string) => Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init });
    const answer = answers[calls.length - 1];
    if (!answer) throw new Error(`unexpected request ${calls.length} to ${url}`);
    return answer(url);
  };
  return { fetch, calls, urls: () => calls.map((call) => call.url) };
}

const redirect =
  (status: number, location?: string, body: BodyInit | null = null): (() => Response) =>
  () =>
    new Response(body, { status, headers: location === undefined ? {} : { location } });
const ok =
  (text = 'done'): (() => Response) =>
  () =>
    new Response(text, { status: 200 });

/** Runs the policy for one request and collects the URLs it reports. */
async function follow(fetch: ReturnType<typeof scripted>['fetch'], init: RequestInit = { method: 'GET' }) {
  const hops: string[] = [];
  const response = await fetchFollowingRedirects(fetch, START, init, (hop) => hops.push(hop));
  return { response, hops, init };
}

describe('what is followed', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i to the same origin, for a GET: the target is fetched with the same init',
    async (status) => {
      const server = scripted(redirect(status, '/moved?x=1'), ok('final'));
      const { response, hops, init } = await follow(server.fetch);
      expect(response.status).toBe(200);
      await expect(response.text()).resolves.toBe('final');
      expect(server.urls()).toEqual([START, 'https://api.example.test/moved?x=1']);
      expect(server.calls.map((call) => call.init)).toEqual([init, init]);
      expect(server.calls[1]?.init).toBe(init);
      expect(hops).toEqual(server.urls());
    },
  );

  it('a HEAD is followed as a GET is', async () => {
    const server = scripted(redirect(302, '/moved'), () => new Response(null, { status: 204 }));
    const { response, hops } = await follow(server.fetch, { method: 'HEAD' });
    expect(response.status).toBe(204);
    expect(hops).toEqual([START, 'https://api.example.test/moved']);
  });

  it('a relative Location resolves against the URL that answered, not the first one', async () => {
    const server = scripted(
      redirect(301, 'https://api.example.test/a/b/c'),
      redirect(302, '../d'),
      redirect(307, 'e?y=2'),
      ok(),
    );
    const { hops } = await follow(server.fetch);
    expect(hops).toEqual([
      START,
      'https://api.example.test/a/b/c',
      'https://api.example.test/a/d',
      'https://api.example.test/a/e?y=2',
    ]);
  });

  it('an absolute Location on the same origin is followed, written out in full (default port dropped)', async () => {
    const server = scripted(redirect(308, 'HTTPS://API.example.test:443/next'), ok());
    const { hops } = await follow(server.fetch);
    expect(hops).toEqual([START, 'https://api.example.test/next']);
  });

  it('5 redirects are followed; the answer after them is returned', async () => {
    const server = scripted(...[1, 2, 3, 4, 5].map((n) => redirect(302, `/hop${n}`)), ok('after five'));
    const { response, hops } = await follow(server.fetch);
    await expect(response.text()).resolves.toBe('after five');
    expect(hops).toEqual([START, ...[1, 2, 3, 4, 5].map((n) => `https://api.example.test/hop${n}`)]);
  });

  it('the 6th redirect in a row is returned, not followed', async () => {
    const server = scripted(...[1, 2, 3, 4, 5, 6].map((n) => redirect(302, `/hop${n}`, `body ${n}`)));
    const { response, hops } = await follow(server.fetch);
    expect(server.calls).toHaveLength(6);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/hop6');
    await expect(response.text()).resolves.toBe('body 6');
    expect(hops.at(-1)).toBe('https://api.example.test/hop5');
  });
});

describe('what comes back as the 3xx itself', () => {
  it.each([
    ['another host', 'https://evil.example.test/v2/api/pix/keys/list-keys'],
    ['a subdomain', 'https://www.api.example.test/'],
    ['another port', 'https://api.example.test:8443/'],
    ['another scheme', 'http://api.example.test/'],
    ['a protocol-relative URL to another host', '//evil.example.test/'],
    ['another scheme altogether', 'ftp://api.example.test/'],
  ])('a Location on %s', async (_what, location) => {
    const server = scripted(redirect(307, location, 'moved'));
    const { response, hops } = await follow(server.fetch);
    expect(server.calls).toHaveLength(1);
    expect(response.status).toBe(307);
    await expect(response.text()).resolves.toBe('moved');
    expect(hops).toEqual([START]);
  });

  it.each(['PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS'])(
    'any redirect of a %s, even a 303 to the same origin',
    async (method) => {
      for (const status of [301, 302, 303, 307, 308]) {
        const server = scripted(redirect(status, '/moved'));
        const { response } = await follow(server.fetch, { method });
        expect(server.calls).toHaveLength(1);
        expect(response.status).toBe(status);
      }
    },
  );

  it('a request whose init names no method', async () => {
    const server = scripted(redirect(302, '/moved'));
    const { response } = await follow(server.fetch, {});
    expect(server.calls).toHaveLength(1);
    expect(response.status).toBe(302);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not a URL', 'https://[::1'],
    ['a host with a space', 'https://exa mple.test/'],
  ])('a Location that is %s', async (_what, location) => {
    const server = scripted(redirect(302, location, 'kept'));
    const { response } = await follow(server.fetch);
    expect(server.calls).toHaveLength(1);
    expect(response.status).toBe(302);
    await expect(response.text()).resolves.toBe('kept');
  });

  it.each([300, 304, 305, 306])('a %i, which is not a redirect to follow', async (status) => {
    const server = scripted(() => new Response(null, { status, headers: { location: '/moved' } }));
    const { response } = await follow(server.fetch);
    expect(server.calls).toHaveLength(1);
    expect(response.status).toBe(status);
  });
});

describe('the body of a followed 3xx', () => {
  it('is cancelled, so its connection is freed', async () => {
    let cancelled: unknown = 'not cancelled';
    const body = new ReadableStream({
      pull: () => undefined,
      cancel: (reason) => {
        cancelled = reason;
      },
    });
    const server = scripted(redirect(302, '/moved', body), ok());
    const { response } = await follow(server.fetch);
    expect(response.status).toBe(200);
    expect(cancelled).toBeUndefined();
  });

  it('that cannot be cancelled (locked) does not stop the redirect', async () => {
    const server = scripted(() => {
      const response = new Response('locked', { status: 302, headers: { location: '/moved' } });
      response.body!.getReader();
      return response;
    }, ok('after'));
    const { response } = await follow(server.fetch);
    await expect(response.text()).resolves.toBe('after');
  });

  it('that is empty (null) does not stop the redirect', async () => {
    const server = scripted(redirect(303, '/moved', null), ok('after'));
    const { response } = await follow(server.fetch);
    await expect(response.text()).resolves.toBe('after');
  });
});

describe('through the client: the token, and the URL errors name', () => {
  const client = (fetch: FetchLike, options: Partial<BaasClientOptions> = {}) =>
    createBaasClient({ baseUrl: 'https://api.example.test', token: SECRET_TOKEN, retry: false, fetch, ...options });
  const auth = (init: RequestInit | undefined) => (init?.headers as Record<string, string> | undefined)?.Authorization;

  it('a same-origin redirect of a GET carries the token to the target and returns its data', async () => {
    const page = { cursor: { next: null }, data: firstPageKeys() };
    const server = scripted(redirect(307, '/v3/keys'), () => Response.json(page));
    await expect(client(server.fetch).listPixKeys({ limit: 2 })).resolves.toEqual(page);
    expect(server.urls()).toEqual([
      'https://api.example.test/v2/api/pix/keys/list-keys?limit=2',
      'https://api.example.test/v3/keys',
    ]);
    expect(server.calls.map((call) => auth(call.init))).toEqual([`Bearer ${SECRET_TOKEN}`, `Bearer ${SECRET_TOKEN}`]);
  });

  it('an error after a redirect names the URL the call went to, with DocumentNumber masked', async () => {
    const server = scripted(redirect(302, `/elsewhere?DocumentNumber=${VALID_CPF}`), () =>
      Response.json({ title: 'Gone', status: 500 }, { status: 500 }),
    );
    const error = await client(server.fetch)
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasApiError);
    const { url, attempts, status } = error as BaasApiError;
    expect({ url, attempts, status }).toEqual({
      url: 'https://api.example.test/elsewhere?DocumentNumber=*********25',
      attempts: 1,
      status: 500,
    });
    expect((error as BaasApiError).message).toContain(
      '(GET https://api.example.test/elsewhere?DocumentNumber=*********25)',
    );
    expect(JSON.stringify(error)).not.toContain(VALID_CPF);
  });

  it('a network failure on a redirect target names the target', async () => {
    const server = scripted(redirect(301, '/down'), () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    });
    const error = await client(server.fetch)
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).url).toBe('https://api.example.test/down');
  });

  it('a redirect to another origin is a BaasResponseError naming the URL asked, and the token never leaves', async () => {
    const server = scripted(redirect(307, 'https://evil.example.test/steal'));
    const error = await client(server.fetch)
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).message).toBe(
      'listPixKeys: a redirect to another origin or for a non-GET request, not followed (HTTP 307) (GET https://api.example.test/v2/api/pix/keys/list-keys)',
    );
    expect(server.urls()).toEqual(['https://api.example.test/v2/api/pix/keys/list-keys']);
  });

  it('an opaque redirect (a browser-like fetch, status 0) is a BaasResponseError about a redirect, not followed', async () => {
    const opaque = () => {
      const response = new Response(null, { status: 200 });
      Object.defineProperty(response, 'status', { value: 0 });
      Object.defineProperty(response, 'ok', { value: false });
      Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
      return response;
    };
    const server = scripted(opaque);
    const error = await client(server.fetch)
      .listPixKeys({ retry: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).message).toMatch(/redirect .*opaque.*not followed/);
    expect(server.calls).toHaveLength(1);
  });

  it('a 303 answering an update (PUT) is returned, and the body is sent once', async () => {
    const server = scripted(redirect(303, '/result'));
    const error = await client(server.fetch)
      .updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: { socialName: 'Maria' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).status).toBe(303);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.init.method).toBe('PUT');
  });
});
