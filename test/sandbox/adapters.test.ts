// The sandbox's adapters, without Prism: listen() on 127.0.0.1 (its log line, dropped connections,
// stop), and the MSW handlers with a stand-in for msw's `http` (in process, no interception).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMswHandlers, createSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { listen, logLine } from '../../src/sandbox/listen.js';
import { answerOf, LIST } from './in-process.js';
import { terminalText } from '../../src/cli/output.js';

// Before any server starts: the adapter must leave the process's Response alone.
const NodeResponse = globalThis.Response;
const running: RunningSandbox[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

describe('the log line', () => {
  it('has the method, path, query with DocumentNumber and Account masked and other values hidden, status and time', () => {
    const request = new Request(
      'http://h/v2/api/x?Account=300541976902&DocumentNumber=52998224725&limit=5&cursor=3.abc&secret=xyz',
    );
    expect(logLine(request, 200, 1.26)).toBe(
      'GET /v2/api/x?Account=**********02&DocumentNumber=*********25&limit=5&cursor=%E2%80%A6&secret=%E2%80%A6 → HTTP 200 in 1.3 ms',
    );
    expect(logLine(new Request('http://h/p', { method: 'PUT' }), 'dropped', 0)).toBe('PUT /p → dropped in 0.0 ms');
  });

  it('keeps its own status and time apart from the digits of the path and query, so the masking where it is shown leaves them whole', async () => {
    // The command line masks every line whole (src/cli/output.ts); only a letter breaks a run of digits.
    const lines: string[] = [];
    const server = await listen(async () => new Response(null, { status: 404 }), { log: (line) => lines.push(line) });
    running.push(server);
    vi.useFakeTimers({ toFake: ['performance'] });
    await fetch(`${server.url}/x/123456`);
    await fetch(`${server.url}/x/12345?limit=5`);
    expect(lines.map(terminalText)).toEqual([
      'GET /x/123456 → HTTP 404 in 0.0 ms',
      'GET /x/12345?limit=5 → HTTP 404 in 0.0 ms',
    ]);
    // A CPF of the path is still masked.
    expect(terminalText(logLine(new Request('http://h/x/529.982.247-25'), 200, 12.5))).toBe(
      'GET /x/***.***.***-** → HTTP 200 in 12.5 ms',
    );
  });
});

describe('listen()', () => {
  const sandbox = createSandbox({ seed: 'listen', keysPerAccount: 3 });
  const headers = { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'user-agent': 't/1' };

  it('serves on 127.0.0.1 (also when asked for localhost), answers as in process, and logs each request', async () => {
    const lines: string[] = [];
    const server = await sandbox.listen({ host: 'localhost', log: (line) => lines.push(line) });
    running.push(server);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const overHttp = await answerOf(await fetch(`${server.url}/v2/api/pix/keys/list-keys?limit=2`, { headers }));
    const inProcess = await answerOf(await sandbox.fetch(`${LIST}?limit=2`, { headers }));
    expect(overHttp.status).toBe(200);
    expect(overHttp.text).toBe(inProcess.text);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/v2\/api\/pix\/keys\/list-keys\?limit=2 → HTTP 200 in [0-9]+\.[0-9] ms$/);
    expect(globalThis.Response).toBe(NodeResponse);
    // Bound to 127.0.0.1 only: not on the IPv6 loopback.
    await expect(fetch(`http://[::1]:${server.port}/v2/api/pix/keys/list-keys`, { headers })).rejects.toBeInstanceOf(
      TypeError,
    );
  });

  it('logs the time each request took, from performance.now()', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.advanceTimersByTime(5_000);
    const lines: string[] = [];
    const server = await sandbox.listen({ log: (line) => lines.push(line) });
    running.push(server);
    await (await fetch(`${server.url}/v2/api/pix/keys/list-keys?limit=1`, { headers })).text();
    sandbox.inject({ operation: 'listPixKeys', drop: true });
    await fetch(`${server.url}/v2/api/pix/keys/list-keys`, { headers }).catch(() => undefined);
    expect(lines).toEqual([
      'GET /v2/api/pix/keys/list-keys?limit=1 → HTTP 200 in 0.0 ms',
      'GET /v2/api/pix/keys/list-keys → dropped in 0.0 ms',
    ]);
  });

  it('refuses any other host, and a port already taken', async () => {
    await expect(sandbox.listen({ host: '0.0.0.0' as '127.0.0.1' })).rejects.toThrow(
      'sandbox.listen(): host must be "127.0.0.1" or "localhost": the sandbox serves on this machine only',
    );
    const first = await sandbox.listen({ host: '127.0.0.1' });
    running.push(first);
    const taken = (await sandbox.listen({ port: first.port }).then(
      () => expect.unreachable('a second server on the same port'),
      (error: unknown) => error,
    )) as Error;
    // Node's code kept; the message names the port and the way out (another port, or none for a free one).
    expect(taken).toMatchObject({ code: 'EADDRINUSE' });
    expect(taken.message).toMatch(
      new RegExp(`^sandbox\\.listen\\(\\): port ${first.port} is in use.*another port.*free one$`),
    );
  });

  it('refuses a port out of range and a misspelt option before listening', async () => {
    for (const port of [70_000, -1, 1.5]) await expect(sandbox.listen({ port })).rejects.toThrow(/port .*0 to 65535/);
    await expect(sandbox.listen({ prot: 1 } as never)).rejects.toThrow(/: prot is not an option; did you mean port\?$/);
  });

  it('drops the connection for an injected fault (logged as dropped), with or without a log', async () => {
    const dropping = createSandbox({ seed: 'listen-drop' });
    const lines: string[] = [];
    const logged = await dropping.listen({ log: (line) => lines.push(line) });
    const silent = await dropping.listen();
    running.push(logged, silent);
    const auth = { authorization: `Bearer ${dropping.clients[0]!.token}`, 'user-agent': 't/1' };
    for (const server of [logged, silent]) {
      dropping.inject({ operation: 'listPixKeys', drop: true });
      const error = (await fetch(`${server.url}/v2/api/pix/keys/list-keys`, { headers: auth }).catch(
        (e: unknown) => e,
      )) as TypeError;
      expect(error).toBeInstanceOf(TypeError);
      expect((await fetch(`${server.url}/v2/api/pix/keys/list-keys`, { headers: auth })).status).toBe(200);
    }
    expect(lines.map((line) => line.replace(/ in [0-9.]+ ms$/, ' in t'))).toEqual([
      'GET /v2/api/pix/keys/list-keys → dropped in t',
      'GET /v2/api/pix/keys/list-keys → HTTP 200 in t',
    ]);
  });

  it('a handler that fails gets a 500 from the adapter; stop() closes once, however often it is called', async () => {
    const server = await listen(() => Promise.reject(new Error('bug')), {});
    expect((await fetch(`${server.url}/anything`)).status).toBe(500);
    const stopped = server.stop();
    expect(server.stop()).toBe(stopped);
    await stopped;
    await expect(fetch(`${server.url}/anything`)).rejects.toBeInstanceOf(TypeError);
  });
});

describe('createMswHandlers', () => {
  type Handler = { path: string; resolver: (info: { request: Request }) => Promise<Response> };
  const http = { all: (path: string, resolver: Handler['resolver']): Handler => ({ path, resolver }) };

  // A JavaScript caller's slips, said before msw is loaded instead of "cannot read properties of undefined".
  it('refuses missing options, a missing or relative baseUrl, a misspelt option and a sandbox of another kind', async () => {
    const sandbox = createSandbox({ seed: 'msw-unit' });
    const refused = (run: () => Promise<unknown>) =>
      run().then(
        () => expect.unreachable('accepted'),
        (e: Error) => e,
      );
    for (const [run, said] of [
      [() => createMswHandlers(sandbox, undefined as never), /options are required: \{ baseUrl \}/],
      [() => createMswHandlers(sandbox, { http } as never), /baseUrl must be the absolute http\(s\) URL/],
      [() => createMswHandlers(sandbox, { baseUrl: '/v2', http }), /baseUrl must be/],
      [() => createMswHandlers(sandbox, { baseURL: 'https://baas.example', http } as never), /did you mean baseUrl\?$/],
      [
        () => createMswHandlers({} as never, { baseUrl: 'https://baas.example', http }),
        /first argument must be a sandbox/,
      ],
    ] as const) {
      const error = await refused(run);
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(said);
    }
  });

  it('one handler for every /v2/api/* call under the base URL and one for its token endpoint, answering from the sandbox', async () => {
    const sandbox = createSandbox({ seed: 'msw-unit' });
    const handlers = await createMswHandlers(sandbox, { baseUrl: 'https://baas.example/', http });
    expect(handlers.map((handler) => handler.path)).toEqual([
      'https://baas.example/v2/api/*',
      'https://baas.example/oauth/token',
    ]);
    const { clientId, clientSecret } = sandbox.clients[0]!;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const tokenRequest = new Request('https://baas.example/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const issued = await answerOf(await handlers[1]!.resolver({ request: tokenRequest }));
    expect([issued.status, issued.body.token_type]).toEqual([200, 'Bearer']);
    const request = new Request('https://baas.example/v2/api/pix/keys/list-keys?limit=1', {
      headers: { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'user-agent': 't/1' },
    });
    const answer = await answerOf(await handlers[0]!.resolver({ request }));
    expect([answer.status, answer.body.data.length]).toEqual([200, 1]);
    expect((await createMswHandlers(sandbox, { baseUrl: 'https://baas.example/base', http }))[0]!.path).toBe(
      'https://baas.example/base/v2/api/*',
    );
  });

  it('a dropped connection becomes Response.error(), which MSW turns into a network error', async () => {
    const sandbox = createSandbox({ seed: 'msw-drop' });
    const [handler] = await createMswHandlers(sandbox, { baseUrl: 'https://baas.example', http });
    sandbox.inject({ operation: '*', drop: true });
    const response = await handler!.resolver({
      request: new Request('https://baas.example/v2/api/pix/keys/list-keys'),
    });
    expect(response.type).toBe('error');
  });

  it('loads msw itself when its `http` is not passed', async () => {
    const sandbox = createSandbox({ seed: 'msw-load' });
    const { HttpHandler } = await import('msw');
    const [handler] = await createMswHandlers(sandbox, { baseUrl: 'https://baas.example' });
    expect(handler).toBeInstanceOf(HttpHandler);
    expect((handler as InstanceType<typeof HttpHandler>).info.path).toBe('https://baas.example/v2/api/*');
  });
});
