// fromUrlInitFetch with a fake (url, init) fetch: the extra init fields join every call, and
// whatever answer the fetch gives, the client gets a global Response with the same status, text,
// headers and body (none for the statuses that cannot have one).
import { describe, expect, it } from 'vitest';
import { fromUrlInitFetch, type ResponseLike, type UrlInitFetch } from '../../src/tls/adapt.js';

/** An answer that is not the global Response class, as undici's own copy is not. */
function foreignAnswer(status: number, body: string | null, headers: [string, string][] = []): ResponseLike {
  return {
    status,
    statusText: `text ${status}`,
    headers: {
      forEach: (callback) =>
        headers.forEach(([name, value]) => {
          callback(value, name);
        }),
    },
    body: body === null ? null : new Response(body).body,
  };
}

function recording(answer: () => ResponseLike | Response) {
  const calls: [string, Record<string, unknown>][] = [];
  const fetch: UrlInitFetch = async (url, init) => {
    calls.push([url, init]);
    return answer();
  };
  return { fetch, calls };
}

describe('fromUrlInitFetch', () => {
  it('calls fetch(url, init) with the extra fields joined to the init, the extra winning', async () => {
    const dispatcher = { name: 'agent' };
    const { fetch, calls } = recording(() => foreignAnswer(200, 'ok'));
    const send = fromUrlInitFetch(fetch, { dispatcher, method: 'PATCH' });
    await send('https://api.example/x', { method: 'PUT', headers: { a: '1' } });
    expect(calls).toStrictEqual([['https://api.example/x', { method: 'PATCH', headers: { a: '1' }, dispatcher }]]);
  });

  it('without extra fields, passes the init as it is', async () => {
    const { fetch, calls } = recording(() => foreignAnswer(200, 'ok'));
    await fromUrlInitFetch(fetch)('https://api.example/y', { method: 'GET' });
    expect(calls).toStrictEqual([['https://api.example/y', { method: 'GET' }]]);
  });

  it('a global Response is handed back as it is', async () => {
    const answer = new Response('same', { status: 201 });
    const { fetch } = recording(() => answer);
    expect(await fromUrlInitFetch(fetch)('https://api.example/z', {})).toBe(answer);
  });

  it('any other answer becomes a global Response with its status, status text, headers and body', async () => {
    const { fetch } = recording(() =>
      foreignAnswer(418, '{"a":1}', [
        ['content-type', 'application/json'],
        ['x-request-id', 'req-9'],
      ]),
    );
    const response = await fromUrlInitFetch(fetch)('https://api.example/t', {});
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(418);
    expect(response.statusText).toBe('text 418');
    const seen: [string, string][] = [];
    response.headers.forEach((value, name) => {
      seen.push([name, value]);
    });
    expect(seen).toStrictEqual([
      ['content-type', 'application/json'],
      ['x-request-id', 'req-9'],
    ]);
    expect(await response.text()).toBe('{"a":1}');
  });

  it.each([101, 103, 204, 205, 304])('status %i gets no body, whatever the fetch handed over', async (status) => {
    const { fetch } = recording(() => foreignAnswer(status, 'stray'));
    // 101 and 103 cannot be built as a global Response at all; the rest must come without a body.
    const made = fromUrlInitFetch(fetch)('https://api.example/n', {});
    if (status < 200) await expect(made).rejects.toThrow(RangeError);
    else {
      const response = await made;
      expect(response.status).toBe(status);
      expect(response.body).toBeNull();
    }
  });

  it.each([200, 202, 206, 404, 500])('status %i keeps its body', async (status) => {
    const { fetch } = recording(() => foreignAnswer(status, 'kept'));
    expect(await (await fromUrlInitFetch(fetch)('https://api.example/b', {})).text()).toBe('kept');
  });
});
