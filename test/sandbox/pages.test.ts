// How the sandbox serves a page fast must not change what it serves: the bytes are JSON.stringify's
// of the key records, and the in-process Response behaves as Node's own Response does.
import { describe, expect, it } from 'vitest';
import { BytesResponse } from '../../src/sandbox/bytes-response.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { buildWorld, keyAt } from '../../src/sandbox/data.js';
import { compileKeys, pageBytes } from '../../src/sandbox/page.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('pages as bytes', () => {
  it('are exactly JSON.stringify of the page, across accounts, with names JSON must escape', () => {
    const world = buildWorld('pages', 1, 3, 23);
    world.accounts[0]![1]!.name = 'Conceição "Ção" D\'Ávila \\ Jr. ñ 日本';
    const compiled = compileKeys(world, world.accounts[0]!);
    const all = world.accounts[0]!.flatMap((account) =>
      Array.from({ length: 23 }, (_, index) => keyAt(world, account, index)),
    );
    for (const [offset, end, next] of [
      [0, 69, 'null'],
      [0, 1, '"c1"'],
      [20, 50, '"x.y"'],
      [22, 24, 'null'],
      [46, 69, 'null'],
      [5, 5, 'null'],
    ] as const) {
      const expected = JSON.stringify({
        cursor: { next: JSON.parse(next) as string | null },
        data: all.slice(offset, end),
      });
      expect(text(pageBytes(compiled, offset, end, next))).toBe(expected);
    }
  });
});

describe('BytesResponse', () => {
  const body = '{"cursor":{"next":null},"data":["ação"]}';
  const init = { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'r1' } };
  const make = () => new BytesResponse(new TextEncoder().encode(body), init);

  it('reads like a Response: status, headers, each way of reading the body', async () => {
    const response = make();
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.ok, response.headers.get('x-request-id')]).toEqual([200, true, 'r1']);
    expect(await make().text()).toBe(body);
    expect(await make().json()).toEqual(JSON.parse(body));
    expect(text(new Uint8Array(await make().arrayBuffer()))).toBe(body);
    expect(text(await make().bytes())).toBe(body);
    const blob = await make().blob();
    expect([blob.type, await blob.text()]).toEqual(['application/json', body]);
    expect(await new Response(make().body).text()).toBe(body);
  });

  it('is read once, then unusable, as Node’s Response is', async () => {
    for (const read of ['text', 'json', 'arrayBuffer', 'bytes'] as const) {
      const ours = make();
      const node = new Response(body, init);
      expect(ours.bodyUsed).toBe(false);
      await ours[read]();
      await node[read]();
      expect(ours.bodyUsed).toBe(node.bodyUsed);
      await expect(ours.text()).rejects.toBeInstanceOf(TypeError);
      expect(() => ours.clone()).toThrow(TypeError);
      expect(ours.body?.locked).toBe(node.body?.locked);
    }
    const twice = make();
    await twice.text();
    await expect(twice.text()).rejects.toThrow(
      new TypeError('Response.body is unusable: the body has already been read'),
    );
    const streamed = make();
    expect(streamed.body).toBe(streamed.body);
    expect(await new Response(streamed.body).text()).toBe(body);
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.json()).rejects.toBeInstanceOf(TypeError);
    expect(() => streamed.clone()).toThrow(TypeError);
  });

  it('clones into independent responses, and never lets a reader change the bytes it serves from', async () => {
    const shared = new TextEncoder().encode(body);
    const response = new BytesResponse(shared, init);
    const copy = response.clone();
    new Uint8Array(await response.arrayBuffer()).fill(0);
    (await copy.bytes()).fill(0);
    expect(text(shared)).toBe(body);
    expect(copy.headers.get('x-request-id')).toBe('r1');
    expect(await new BytesResponse(shared, init).text()).toBe(body);
  });

  it('once its stream is asked for, reads, clones and blobs through it, keeping status, status text and headers', async () => {
    const made = {
      status: 201,
      statusText: 'Made',
      headers: { 'content-type': 'application/json', 'x-request-id': 'r2' },
    };
    for (const read of ['text', 'json', 'arrayBuffer', 'bytes'] as const) {
      const response = new BytesResponse(new TextEncoder().encode(body), made);
      expect(response.body).toBeInstanceOf(ReadableStream);
      expect(response.bodyUsed).toBe(false);
      const copy = response.clone();
      expect([copy.status, copy.statusText, copy.headers.get('x-request-id')]).toEqual([201, 'Made', 'r2']);
      const value: unknown = await response[read]();
      expect(
        read === 'json'
          ? value
          : text(read === 'text' ? new TextEncoder().encode(value as string) : new Uint8Array(value as ArrayBuffer)),
      ).toEqual(read === 'json' ? JSON.parse(body) : body);
      expect(response.bodyUsed).toBe(true);
      expect(await copy.text()).toBe(body);
    }
    const unread = new BytesResponse(new TextEncoder().encode(body), made);
    const twin = unread.clone();
    expect([twin.status, twin.statusText, twin.headers.get('x-request-id'), await twin.text()]).toEqual([
      201,
      'Made',
      'r2',
      body,
    ]);
    expect(await unread.text()).toBe(body);
    const read = new BytesResponse(new TextEncoder().encode(body), made);
    await read.text();
    expect(read.body?.locked).toBe(true);
    await expect(read.blob()).rejects.toBeInstanceOf(TypeError);
    await expect(make().formData()).rejects.toBeInstanceOf(TypeError);
    const form = new BytesResponse(new TextEncoder().encode('a=1&b=%C3%A7'), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const data = await form.formData();
    expect([data.get('a'), data.get('b')]).toEqual(['1', 'ç']);
  });

  it("has body and bodyUsed as accessors shaped like Response's own", () => {
    for (const name of ['body', 'bodyUsed']) {
      const ours = Object.getOwnPropertyDescriptor(BytesResponse.prototype, name)!;
      const node = Object.getOwnPropertyDescriptor(Response.prototype, name)!;
      expect([name, typeof ours.get, ours.enumerable, ours.configurable]).toEqual([
        name,
        'function',
        node.enumerable,
        node.configurable,
      ]);
    }
  });

  it('rejects json() on a body that is not JSON, as Node’s Response does', async () => {
    await expect(new BytesResponse(new TextEncoder().encode('{'), init).json()).rejects.toBeInstanceOf(SyntaxError);
  });
});

describe('sandbox.fetch(url, init), as the client calls it', () => {
  const sandbox = createSandbox({ seed: 'light', keysPerAccount: 30 });
  const url = 'https://sandbox.baas.example/v2/api/pix/keys/list-keys?limit=7';
  const headers = { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'user-agent': 'test/1' };
  // The request id is new on every answer (and problem bodies repeat it): compared as a placeholder.
  const answer = async (response: Response) => {
    const id = response.headers.get('x-request-id')!;
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      id: /^[0-9a-f-]{36}$/.test(id),
      body: (await response.text()).replaceAll(id, 'ID'),
    };
  };

  it('answers a GET exactly as it answers the same Request', async () => {
    for (const init of [
      { headers },
      { headers, method: 'get' },
      { headers: new Headers(headers), signal: AbortSignal.timeout(5_000) },
      { headers: { ...headers, authorization: 'Bearer nope' } },
      {},
    ]) {
      expect(await answer(await sandbox.fetch(url, init))).toEqual(
        await answer(await sandbox.fetch(new Request(url, init))),
      );
    }
    expect(await answer(await sandbox.fetch(new URL(url), { headers }))).toEqual(
      await answer(await sandbox.fetch(new Request(url, { headers }))),
    );
    expect(await answer(await sandbox.fetch(url))).toEqual(await answer(await sandbox.fetch(new Request(url))));
  });

  it('rejects what new Request rejects: a relative URL, credentials in the URL, a GET with a body, a bad header', async () => {
    await expect(sandbox.fetch('/v2/api/pix/keys/list-keys', { headers })).rejects.toBeInstanceOf(TypeError);
    await expect(
      sandbox.fetch('https://user:pw@sandbox.baas.example/v2/api/pix/keys/list-keys', { headers }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(sandbox.fetch(url, { headers, body: '{}' })).rejects.toBeInstanceOf(TypeError);
    await expect(sandbox.fetch(url, { headers: { 'bad header': 'x' } })).rejects.toBeInstanceOf(TypeError);
  });
});
