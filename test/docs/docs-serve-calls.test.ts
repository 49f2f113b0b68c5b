// A stranger's mistakes with `docs --serve`, through the command as it runs (in process, the provider an
// injected fetch):
// - a header value of the page's that the client refuses before sending (a User-Agent with a control
//   character, a header with a line break) came back as a 502, as if the provider had failed, and the
//   User-Agent one named `createBaasClient: userAgent`, an option the reader never wrote: it is a 400
//   naming the field, and nothing is sent;
// - Ctrl-C while a call was in flight waited for the provider's answer (up to the client's timeout and
//   retries) and then logged `HTTP 200` for an answer nobody got; a page that went away left its call
//   running and logged the same. The call is cancelled at once, and its line says why.
// - a wrong secret in the address answered a bare "not found": it says where the page is.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { startDocsServer } from '../../src/cli/docs-serve.js';
import { main } from '../../src/cli/main.js';
import { type Captured, capture, sendStop, signalListeners, until } from '../cli/in-process.js';

const TOKEN = 'tok_docs_serve_calls_0123456789';
const PAGE = async () => '<!DOCTYPE html><title>docs</title>';

interface Served {
  io: Captured;
  url: string;
  /** What the provider (the injected fetch) was asked, in order. */
  asked: { url: string; signal: AbortSignal | undefined; headers: Headers }[];
  stop(): Promise<number>;
}

const running: Served[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.stop()));
});

/** `docs --serve` in process; `provider` answers every call it makes. */
async function serve(provider: (signal: AbortSignal | undefined) => Promise<Response>): Promise<Served> {
  const before = signalListeners();
  const asked: Served['asked'] = [];
  const io: Captured = {
    ...capture(),
    env: {},
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      // As the global fetch does, a header no request can carry is refused here, before anything is sent.
      const { headers } = new Request(input, init);
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      asked.push({ url: String(input instanceof Request ? input.url : input), signal: signal ?? undefined, headers });
      return provider(signal ?? undefined);
    }) as typeof fetch,
  };
  let code: number | undefined;
  const done = main(['docs', '--serve', '--base-url', 'http://127.0.0.1:9', '--token', TOKEN], COMMANDS, io).then(
    (c) => (code = c),
  );
  await until(() => code !== undefined || io.stdout.some((line) => /^ {2}http:\/\/127\.0\.0\.1:/.test(line)));
  expect(code, io.stderr.join('\n')).toBeUndefined();
  const url = io.stdout.find((line) => /^ {2}http:/.test(line))!.trim();
  let stopped: Promise<number> | undefined;
  const served: Served = {
    io,
    url,
    asked,
    stop: () => {
      if (!stopped) {
        sendStop(before, 'SIGINT');
        stopped = done;
      }
      return stopped;
    },
  };
  running.push(served);
  return served;
}

/** A call as the page posts it; `abandon` destroys the request once the server has it (the page went away). */
function post(
  url: string,
  call: object,
  { abandon }: { abandon?: () => boolean } = {},
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}call`,
        method: 'POST',
        headers: { origin: `http://${target.host}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', (error) => (abandon ? resolve({ status: 0, body: String(error) }) : reject(error)));
    req.end(JSON.stringify(call));
    if (abandon) until(abandon).then(() => req.destroy());
  });
}

const keys = () =>
  new Response('{"cursor":{"next":null},"data":[]}', { status: 200, headers: { 'content-type': 'application/json' } });
/** A provider that never answers: its call ends only when its signal aborts. */
const hanging = (signal: AbortSignal | undefined) =>
  new Promise<Response>((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

describe('docs --serve: a value of the page that the client refuses is the page’s mistake', () => {
  it('a User-Agent outside the contract’s rule: 400 naming User-Agent, nothing sent', async () => {
    const served = await serve(async () => keys());
    const answer = await post(served.url, {
      operationId: 'listPixKeys',
      query: {},
      headers: { 'User-Agent': 'a\u0001b' },
    });
    expect(answer.status, answer.body).toBe(400);
    const { error } = JSON.parse(answer.body) as { error: string };
    expect(error).toMatch(/^User-Agent must be printable ASCII/);
    expect(error).toContain('nothing was sent');
    expect(error).not.toContain('createBaasClient');
    expect(served.asked).toEqual([]);
    expect(served.io.stdout.at(-1)).toMatch(/^docs --serve: POST \/call HTTP 400 in [0-9]+ ms$/);
  });

  it('a header whose value no request can carry (a line break): 400 naming the header, nothing sent', async () => {
    const served = await serve(async () => keys());
    const answer = await post(served.url, {
      operationId: 'listPixKeys',
      query: {},
      headers: { 'User-Agent': 'a/1', 'X-Note': 'a\r\nAuthorization: Bearer other' },
    });
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body).error).toMatch(
      /nothing was sent: header X-Note has a value with a character an HTTP header cannot carry/,
    );
    expect(served.asked).toEqual([]);
  });

  it('the control case: a well-formed call reaches the provider and its answer comes back', async () => {
    const served = await serve(async () => keys());
    const answer = await post(served.url, { operationId: 'listPixKeys', query: {}, headers: { 'User-Agent': 'a/1' } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).status).toBe(200);
    expect(served.asked).toHaveLength(1);
  });
});

describe('docs --serve: a call nobody will read is cancelled, not waited for', () => {
  it('Ctrl-C with a call in flight: the provider’s call is aborted and the command exits 0 at once', async () => {
    const served = await serve(hanging);
    const answer = post(
      served.url,
      { operationId: 'listPixKeys', query: {}, headers: { 'User-Agent': 'a/1' } },
      {
        abandon: () => false,
      },
    );
    await until(() => served.asked.length === 1);
    // A provider that never answers: without the cancel, the exit would wait for it for ever.
    expect(await served.stop()).toBe(0);
    expect(served.asked[0]!.signal?.aborted).toBe(true);
    expect((await answer).status).toBe(0);
    const lines = served.io.stdout.filter((line) => line.startsWith('docs --serve: POST'));
    expect(lines).toEqual([
      expect.stringMatching(/^docs --serve: POST \/call \(docs --serve stopped after [0-9]+ ms; call cancelled\)$/),
    ]);
  });

  it('the page went away mid-call: its call is aborted, and no status is logged for it', async () => {
    const log: string[] = [];
    const signals: AbortSignal[] = [];
    const server = await startDocsServer({
      port: 0,
      allowWrites: false,
      log: (line) => log.push(line),
      page: PAGE,
      call: (_request, signal) => {
        signals.push(signal);
        return hanging(signal) as never;
      },
    });
    try {
      const answer = await post(
        server.url,
        { operationId: 'listPixKeys', query: {}, headers: {} },
        { abandon: () => signals.length === 1 },
      );
      expect(answer.status).toBe(0);
      await until(() => signals[0]!.aborted);
      await until(() => log.length === 1);
      expect(log).toEqual([
        expect.stringMatching(/^docs --serve: POST \/call \(page went away after [0-9]+ ms; call cancelled\)$/),
      ]);
    } finally {
      await server.stop();
    }
  });
});

it('a wrong secret in the address: 404 saying where the page is, and the secret never in the log', async () => {
  const log: string[] = [];
  const server = await startDocsServer({
    port: 0,
    allowWrites: false,
    log: (line) => log.push(line),
    page: PAGE,
    call: async () => ({ status: 200, headers: {}, body: '' }),
  });
  try {
    const url = new URL(server.url);
    // The secret with its last character changed.
    const last = url.pathname.at(-2)!;
    const wrong = `${url.pathname.slice(0, -2)}${last === 'a' ? 'b' : 'a'}/`;
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: wrong }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status.status).toBe(404);
    expect(JSON.parse(status.body).error).toContain('the address docs --serve printed, which holds a secret');
    expect(log.join('\n')).not.toContain(url.pathname.slice(1, -2));
  } finally {
    await server.stop();
  }
});

describe('docs --serve: a header field the browser and the connection set is not taken from the page', () => {
  // Sent on, Transfer-Encoding, Keep-Alive, Upgrade and Expect made the client's fetch throw (a "network
  // failure after 3 attempts", retried), and Host went to the provider as the page wrote it.
  it.each([
    'Host',
    'Transfer-Encoding',
    'keep-alive',
    'Upgrade',
    'Expect',
    'Content-Length',
    'Sec-Fetch-Mode',
    'Proxy-Foo',
    'Via',
  ])('%s: 400 naming it, nothing sent', async (name) => {
    const served = await serve(async () => keys());
    const answer = await post(served.url, {
      operationId: 'listPixKeys',
      query: {},
      headers: { 'User-Agent': 'a/1', [name]: 'x' },
    });
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body).error).toBe(
      `${name} is set by the browser and the HTTP connection, not by the page (a forbidden request-header name of the Fetch standard): remove it and press Send again`,
    );
    expect(served.asked).toEqual([]);
  });

  it('a field of the contract or of the caller’s own (Prefer, X-Forwarded-For) is sent on', async () => {
    const served = await serve(async () => keys());
    const answer = await post(served.url, {
      operationId: 'listPixKeys',
      query: {},
      headers: { 'User-Agent': 'a/1', Prefer: 'code=200', 'X-Forwarded-For': '10.0.0.1' },
    });
    expect(answer.status, answer.body).toBe(200);
    expect(served.asked).toHaveLength(1);
    expect(served.asked[0]!.headers.get('prefer')).toBe('code=200');
    expect(served.asked[0]!.headers.get('x-forwarded-for')).toBe('10.0.0.1');
  });
});
