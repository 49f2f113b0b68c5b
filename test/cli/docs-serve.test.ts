// docs --serve's guards, on the server itself (a page and a call of the test's own, so no rendering):
// the served secret, the Host (DNS rebinding), the Origin and Sec-Fetch-Site, the call's form and size,
// reads only unless --allow-writes, no credential field from the page, the answers' own guard fields,
// and a log without the secret. The same against the real command, in Chromium: test/docs/try-it.matrix.test.ts.
import { request as httpRequest } from 'node:http';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { MAX_CALL_BYTES, parseCall, startDocsServer, type DocsServer } from '../../src/cli/docs-serve.js';
import { main } from '../../src/cli/main.js';
import { tryItOperations, tryItSnippet } from '../../src/cli/try-it.js';
import { spec } from '../support/spec.js';
import { capture } from './in-process.js';

const calls: unknown[] = [];
const log: string[] = [];
let server: DocsServer;
beforeAll(async () => {
  server = await startDocsServer({
    port: 0,
    allowWrites: false,
    log: (line) => log.push(line),
    page: async () => '<!DOCTYPE html><title>docs</title>',
    call: async (request) => {
      calls.push(request);
      return { status: 200, headers: {}, body: '{"cursor":{"next":null},"data":[]}' };
    },
  });
});
afterAll(() => server?.stop());

function send(path: string, headers: Record<string, string>, method = 'GET', body?: string) {
  const url = new URL(server.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const host = () => new URL(server.url).host;
const page = () => new URL(server.url).pathname;
const own = () => `http://${host()}`;
const json = { 'content-type': 'application/json' };
const list = JSON.stringify({ operationId: 'listPixKeys', query: { limit: '5' }, headers: { 'User-Agent': 'a/1' } });

describe('docs --serve refuses', () => {
  it('nothing it should answer: the page and a call from the page (the control case)', async () => {
    const answered = await send(page(), { host: host() });
    expect(answered.status).toBe(200);
    const called = await send(`${page()}call`, { host: host(), origin: own(), ...json }, 'POST', list);
    expect(called.status, called.body).toBe(200);
    expect(JSON.parse(called.body).status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it('a request without the served secret, or with a wrong one: 404', async () => {
    const secret = page().split('/')[1]!;
    for (const path of ['/', '/call', `/${secret.slice(0, -1)}/`, `/${secret}x/`, `/x${secret}/call`])
      expect((await send(path, { host: host(), origin: own(), ...json }, 'POST', list)).status, path).toBe(404);
    expect(calls).toHaveLength(1);
  });

  it('a Host that is not the bound address (DNS rebinding), even a loopback name: 403', async () => {
    const port = new URL(server.url).port;
    for (const name of [`rebind.example:${port}`, `localhost:${port}`, `127.0.0.1:${Number(port) + 1}`, '127.0.0.1'])
      expect((await send(page(), { host: name })).status, name).toBe(403);
  });

  it('another origin or site; a call with no Origin: 403, nothing called', async () => {
    const before = calls.length;
    expect((await send(page(), { host: host(), origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await send(page(), { host: host(), 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await send(page(), { host: host(), 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await send(`${page()}call`, { host: host(), origin: 'null', ...json }, 'POST', list)).status).toBe(403);
    expect((await send(`${page()}call`, { host: host(), ...json }, 'POST', list)).status).toBe(403);
    expect(calls.length).toBe(before);
  });

  it('a call that is not JSON, too large, or not a POST', async () => {
    const at = `${page()}call`;
    expect((await send(at, { host: host(), origin: own(), 'content-type': 'text/plain' }, 'POST', list)).status).toBe(
      415,
    );
    expect((await send(at, { host: host(), origin: own() })).status).toBe(405);
    const big = JSON.stringify({ operationId: 'listPixKeys', body: 'x'.repeat(MAX_CALL_BYTES) });
    expect((await send(at, { host: host(), origin: own(), ...json }, 'POST', big)).status).toBe(413);
  });

  it('answers that no other page may frame, cache or read the Referer of', async () => {
    const answered = await send(page(), { host: host() });
    expect(answered.headers['x-frame-options']).toBe('DENY');
    expect(answered.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(answered.headers['content-security-policy']).toMatch(/connect-src 'self'/);
    expect(answered.headers['referrer-policy']).toBe('no-referrer');
    expect(answered.headers['cache-control']).toBe('no-store');
  });

  it('logs each request without the secret', () => {
    const secret = page().split('/')[1]!;
    expect(log.length).toBeGreaterThan(5);
    expect(log.filter((line) => line.includes(secret))).toEqual([]);
    expect(log).toContainEqual(expect.stringMatching(/^docs --serve: POST \/call HTTP 200 /));
  });
});

describe('a call, checked against the operation table', () => {
  const refused = (text: string, writes = false) => {
    try {
      parseCall(text, writes);
      return undefined;
    } catch (error) {
      return { status: (error as { status: number }).status, message: (error as Error).message };
    }
  };
  const update = JSON.stringify({ operationId: 'updateNaturalPerson', query: {}, headers: {}, body: '{}' });

  it('a write only with --allow-writes', () => {
    expect(refused(update)).toEqual({ status: 403, message: expect.stringContaining('--allow-writes') });
    expect(refused(update, true)).toBeUndefined();
  });

  it('no credential field from the page, in any letter case', () => {
    for (const name of ['Authorization', 'authorization', 'Proxy-Authorization', 'Cookie'])
      expect(refused(JSON.stringify({ operationId: 'listPixKeys', headers: { [name]: 'x' } }))?.status, name).toBe(400);
  });

  it('an operation, parameters and header names of the contract', () => {
    expect(refused('not json')?.status).toBe(400);
    expect(refused(JSON.stringify({ operationId: 'deleteEverything' }))?.message).toMatch(
      /updateNaturalPerson, listPixKeys/,
    );
    expect(refused(JSON.stringify({ operationId: 'listPixKeys', query: { limt: '5' } }))?.message).toMatch(/limt/);
    expect(refused(JSON.stringify({ operationId: 'listPixKeys', headers: { 'bad name': 'x' } }))?.status).toBe(400);
    expect(refused(JSON.stringify({ operationId: 'listPixKeys', query: { limit: 5 } }))?.status).toBe(400);
    expect(refused(list)).toBeUndefined();
  });
});

describe('the try-it panel', () => {
  it('is a script that compiles, with its settings as JSON no text of the spec can close', () => {
    const operations = tryItOperations(spec).map((op) => ({
      ...op,
      summary: `${op.summary}</script><script>alert(1)`,
    }));
    const snippet = tryItSnippet({ mode: { kind: 'direct', token: 't', note: 'n' }, operations });
    const scripts = [...snippet.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(2);
    expect(JSON.parse(Buffer.from(scripts[0]!, 'base64').toString('utf8')).operations[0].summary).toContain(
      '</script>',
    );
    expect(() => new Script(scripts[1]!)).not.toThrow();
  });

  it("has a form per operation, prefilled from the spec's examples, and by the caller's values", () => {
    const operations = tryItOperations(spec, { account: '123', documentNumber: '52998224725' });
    expect(operations.map((op) => op.operationId).sort()).toEqual(['listPixKeys', 'updateNaturalPerson']);
    const update = operations.find((op) => op.operationId === 'updateNaturalPerson')!;
    expect(update.fields.map((f) => [f.name, f.value])).toEqual([
      ['Account', '123'],
      ['DocumentNumber', '52998224725'],
    ]);
    expect(JSON.parse(update.body!)).toEqual(spec.components.examples!.FullUpdate.value);
    const listing = operations.find((op) => op.operationId === 'listPixKeys')!;
    // A cursor is known only from an earlier page: it starts empty.
    expect(Object.fromEntries(listing.fields.map((f) => [f.name, f.value]))).toEqual({
      'User-Agent': 'acme-payments/1.4.2',
      limit: '50',
      cursor: '',
    });
    expect(listing.body).toBeUndefined();
  });
});

describe('docs command line', () => {
  it.each([
    [['docs', '--serve', '--out', 'x'], '--out and --serve are two uses'],
    [['docs', '--out', 'x', '--port', '1'], '--port is for --serve'],
    [['docs', '--out', 'x', '--base-url', 'http://127.0.0.1:1'], '--base-url is for --serve'],
    [['docs', '--serve', '--base-url', 'http://127.0.0.1:1'], 'no credentials'],
    [['docs', '--serve', '--port', 'x', '--base-url', 'http://127.0.0.1:1'], '--port must be a whole number'],
  ])('%j: a usage error naming the flag, exit 2', async (argv, message) => {
    const io = { ...capture(), env: {} };
    expect(await main(argv, COMMANDS, io)).toBe(2);
    expect(io.stderr.at(-1)).toContain(message);
  });
});
