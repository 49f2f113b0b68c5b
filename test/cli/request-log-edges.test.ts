// The request log's edges, against a fake server of ours on 127.0.0.1 (test/support/fault-server.ts):
// what reaches the server behind, what a 422 names and when it names nothing, the size limit on a
// problem body, the line's exact form, a server behind that dies mid-answer, and the stop.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { faultyFields, formatLine, reachableUrl, startRequestLog, type RequestLog } from '../../src/cli/request-log.js';
import { redactPath } from '../../src/redact.js';
import { terminalText } from '../../src/cli/output.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { VALID_CPF } from '../support/fixtures.js';
import { portIsFree } from './processes.js';
import { until } from './in-process.js';

const LIMIT = 64 * 1024;
let upstream: FaultServer;
let front: RequestLog;
const lines: string[] = [];

beforeAll(async () => {
  upstream = await startFaultServer();
  front = await startRequestLog({ target: upstream.url, host: '127.0.0.1', port: 0, log: (line) => lines.push(line) });
});
afterAll(async () => {
  await front?.stop();
  await upstream?.close();
});
beforeEach(() => {
  lines.length = 0;
  // A frozen clock: every line takes 0 ms.
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

/** The one line logged for a request (the log is written once the answer has ended). */
async function logged(): Promise<string> {
  await until(() => lines.length > 0);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/**
 * The parts of the one line logged: method, path, status, the fields a 422 names, and how it ended
 * (`0 ms`, or why the answer was cut off). The line's words are pinned once, by formatLine's tests below.
 */
async function loggedParts(): Promise<{
  method: string;
  path: string;
  status: number;
  fields?: string[];
  end: string;
}> {
  const line = await logged();
  const parts = /^(\S+) (\S+) HTTP (\d{3})(?: in (\d+ ms)(?:, fields: (.*))?| \(([^()]*)\))$/.exec(line);
  if (!parts) throw new Error(`not a request log line: ${line}`);
  const [, method, path, status, time, fields, reason] = parts;
  return {
    method: method!,
    path: path!,
    status: Number(status),
    ...(fields === undefined ? {} : { fields: fields.split(', ') }),
    end: (time ?? reason)!,
  };
}

const violations = (list: unknown) => ({ 'sl-violations': JSON.stringify(list) });

describe('what the server behind gets and what the client gets back', () => {
  it('the Host of the server behind, the status and its reason phrase passed through', async () => {
    upstream.handle((_req, res) => res.writeHead(418, 'Short And Stout', { 'x-kept': 'yes' }).end('tea'));
    const response = await fetch(`${front.url}/teapot`);
    expect([response.status, response.statusText, response.headers.get('x-kept'), await response.text()]).toEqual([
      418,
      'Short And Stout',
      'yes',
      'tea',
    ]);
    expect(upstream.requests[0]!.headers.host).toBe(new URL(upstream.url).host);
    expect(await loggedParts()).toEqual({ method: 'GET', path: '/teapot', status: 418, end: '0 ms' });
  });

  it('a server behind that dies mid-answer: the client is not left waiting, and the line says so', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part', () => res.socket?.destroy());
    });
    const response = await fetch(`${front.url}/cut`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(await loggedParts()).toEqual({
      method: 'GET',
      path: '/cut',
      status: 200,
      end: 'answer cut off: ECONNRESET',
    });
  });

  it('a server behind that resets the connection mid-answer: the answer is cut off, nothing is added to it', async () => {
    let reset = () => {};
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part');
      reset = () => res.socket?.resetAndDestroy();
    });
    const response = await fetch(`${front.url}/reset`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('part');
    // Only once the client has the start of the answer does the server behind reset the connection.
    reset();
    const rest = async (): Promise<string> => {
      const { done, value } = await reader.read();
      return done ? '' : new TextDecoder().decode(value) + (await rest());
    };
    await expect(rest()).rejects.toThrow();
    expect(await loggedParts()).toEqual({
      method: 'GET',
      path: '/reset',
      status: 200,
      end: 'answer cut off: ECONNRESET',
    });
  });
});

describe('the fields of a 422', () => {
  it("from sl-violations: location without 'request', a name from the message, the contract's spelling, each once", async () => {
    upstream.handle((_req, res) =>
      res
        .writeHead(
          422,
          violations([
            {
              location: ['request', 'body', 'address', 'state'],
              message: 'must be equal to one of the allowed values',
            },
            { location: ['request', 'body', 'address'], message: "must have required property 'city'" },
            { location: ['request', 'body'], message: 'must NOT have fewer than 1 properties' },
            { location: ['request', 'query'], message: "must have required property 'account'" },
            { location: ['request', 'query', 'documentnumber'], message: 'must match pattern' },
            { location: ['request', 'header', 'user-agent'], message: 'must NOT have fewer than 1 characters' },
            { location: ['request', 'body', 'address', 'state'] },
          ]),
        )
        .end(JSON.stringify({ violations: [{ property: '/never/read' }] })),
    );
    expect((await fetch(`${front.url}/v2/x`, { method: 'PUT' })).status).toBe(422);
    expect(await loggedParts()).toEqual({
      method: 'PUT',
      path: '/v2/x',
      status: 422,
      fields: ['/address/state', '/address/city', 'body', 'Account', 'DocumentNumber', 'User-Agent'],
      end: '0 ms',
    });
  });

  it('from sl-violations: a name the contract does not define is "(unknown field)", shown once', async () => {
    upstream.handle((_req, res) =>
      res
        .writeHead(
          422,
          violations([
            { location: ['request', 'body'], message: "must NOT have additional properties; found 'nickname'" },
            { location: ['request', 'body', 'phones', 0], message: 'must match pattern' },
            { message: "must have required property 'Account'" },
            { location: ['request'], message: 'must be object' },
            { location: ['request', 'query', 'limit'], message: "must be <= 100, found 'x y'" },
            { location: ['request', 'body', 'email'], message: 'must match format "email"' },
          ]),
        )
        .end(),
    );
    expect((await fetch(`${front.url}/v2/x`, { method: 'PUT' })).status).toBe(422);
    expect(await loggedParts()).toEqual({
      method: 'PUT',
      path: '/v2/x',
      status: 422,
      fields: ['(unknown field)', '/email'],
      end: '0 ms',
    });
  });

  it('from the problem body when sl-violations is not JSON; only string properties', async () => {
    upstream.handle((_req, res) =>
      json(
        res,
        422,
        { violations: [{ property: '/email' }, { property: 3 }, {}, { property: '/address/state' }] },
        { 'sl-violations': 'not json' },
      ),
    );
    await fetch(`${front.url}/p`, { method: 'POST' });
    expect(await loggedParts()).toEqual({
      method: 'POST',
      path: '/p',
      status: 422,
      fields: ['/email', '/address/state'],
      end: '0 ms',
    });
  });

  it('from the problem body when sl-violations is JSON but not a list', async () => {
    upstream.handle((_req, res) =>
      json(res, 422, { violations: [{ property: '/email' }] }, violations({ location: ['request', 'body'] })),
    );
    await fetch(`${front.url}/p`, { method: 'POST' });
    expect(await loggedParts()).toEqual({ method: 'POST', path: '/p', status: 422, fields: ['/email'], end: '0 ms' });
  });

  it.each([
    ['a problem body without violations', '{"status":422}'],
    ['a body that is not JSON', 'Unprocessable'],
    ['an empty body', ''],
  ])('"(not named)" for %s', async (_what, body) => {
    upstream.handle((_req, res) => res.writeHead(422, { 'content-type': 'text/plain' }).end(body));
    await fetch(`${front.url}/p`, { method: 'POST' });
    expect(await loggedParts()).toEqual({
      method: 'POST',
      path: '/p',
      status: 422,
      fields: ['(not named)'],
      end: '0 ms',
    });
  });

  it('reads a problem body of exactly 64 KiB, all of it', async () => {
    // The padding inside the JSON, sent in two parts: a body missing its last part would not parse.
    const head = '{"violations":[{"property":"/email"}],"pad":"';
    const body = `${head + 'x'.repeat(LIMIT - head.length - 2)}"}`;
    upstream.handle((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/problem+json' });
      res.write(body.slice(0, LIMIT / 2), () => setImmediate(() => res.end(body.slice(LIMIT / 2))));
    });
    const response = await fetch(`${front.url}/big`, { method: 'PUT' });
    expect(await response.text()).toBe(body);
    expect(await loggedParts()).toEqual({ method: 'PUT', path: '/big', status: 422, fields: ['/email'], end: '0 ms' });
  });

  it('reads no problem body larger than 64 KiB, even when its start parses (the answer itself passes whole)', async () => {
    const problem = JSON.stringify({ violations: [{ property: '/email' }] });
    const body = problem + ' '.repeat(LIMIT + 1 - problem.length);
    upstream.handle((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/problem+json' });
      res.write(problem, () => setImmediate(() => res.end(body.slice(problem.length))));
    });
    const response = await fetch(`${front.url}/big`, { method: 'PUT' });
    expect(await response.text()).toBe(body);
    expect(await loggedParts()).toEqual({
      method: 'PUT',
      path: '/big',
      status: 422,
      fields: ['(not named)'],
      end: '0 ms',
    });
  });

  it('a 200 names no fields even when it carries sl-violations or violations', async () => {
    upstream.handle((_req, res) =>
      json(
        res,
        200,
        { violations: [{ property: '/email' }] },
        violations([{ location: ['request', 'body', 'email'] }]),
      ),
    );
    await fetch(`${front.url}/ok`);
    expect(await loggedParts()).toEqual({ method: 'GET', path: '/ok', status: 200, end: '0 ms' });
  });
});

describe('the line', () => {
  it('counts the time from the request to the end of the answer', async () => {
    upstream.handle((_req, res) => {
      vi.setSystemTime(Date.now() + 1_234);
      res.writeHead(204).end();
    });
    await fetch(`${front.url}/slow`);
    expect(await loggedParts()).toEqual({ method: 'GET', path: '/slow', status: 204, end: '1234 ms' });
  });

  it('keeps its own status and time apart from the digits of the path, so the masking where it is shown leaves them whole', async () => {
    // The command line masks every line whole (src/cli/output.ts); only a letter breaks a run of digits,
    // so `GET /x/123456 404 (12 ms)` was shown `GET /x/****** *** (12 ms)`.
    upstream.handle((_req, res) => {
      vi.setSystemTime(Date.now() + 12);
      res.writeHead(404).end();
    });
    await fetch(`${front.url}/x/123456`);
    expect(terminalText(await logged())).toBe('GET /x/123456 HTTP 404 in 12 ms');
    lines.length = 0;
    upstream.handle((_req, res) => res.writeHead(200).end());
    await fetch(`${front.url}/x/529.982.247-25`);
    expect(terminalText(await logged())).toBe('GET /x/***.***.***-** HTTP 200 in 0 ms');
  });

  it('formatLine: fields only for a 422', () => {
    expect(formatLine('GET', '/a', 200, 5, ['x'])).toBe('GET /a HTTP 200 in 5 ms');
    expect(formatLine('PUT', '/a', 422, 7, ['x', 'y'])).toBe('PUT /a HTTP 422 in 7 ms, fields: x, y');
    expect(formatLine('PUT', '/a', 422, 7, [])).toBe('PUT /a HTTP 422 in 7 ms, fields: (not named)');
  });

  it('redactPath: no query, every run of 11 digits or more masked digit for digit, shorter runs kept', () => {
    expect(redactPath(undefined)).toBe('/');
    expect(redactPath('/a?b=1?c')).toBe('/a');
    expect(redactPath(`/c/${VALID_CPF}/k/${VALID_CPF}123/n/1234567890`)).toBe(
      '/c/***********/k/**************/n/1234567890',
    );
  });

  it('faultyFields ignores sl-violations that is absent, and reads the body', () => {
    expect(faultyFields({}, '{"violations":[{"property":"/email"}]}')).toEqual(['/email']);
    expect(faultyFields({}, '{}')).toEqual([]);
  });
});

describe('listening and stopping', () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    blocker = undefined;
  });

  it('fails with EADDRINUSE when the port is taken', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    await expect(
      startRequestLog({ target: upstream.url, host: '127.0.0.1', port, log: () => undefined }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('shows an IPv6 host in brackets, and its URL works', async () => {
    const log = await startRequestLog({ target: upstream.url, host: '::1', port: 0, log: () => undefined });
    try {
      expect(log.url).toBe(`http://[::1]:${log.port}`);
      upstream.handle((_req, res) => res.writeHead(204).end());
      expect((await fetch(`${log.url}/six`)).status).toBe(204);
    } finally {
      await log.stop();
    }
  });

  it('stops without waiting for a request still in flight: its client is cut off', async () => {
    const log = await startRequestLog({ target: upstream.url, host: '127.0.0.1', port: 0, log: () => undefined });
    upstream.handle(() => new Promise(() => {}));
    const answer = fetch(`${log.url}/never`).then(
      () => 'answered',
      () => 'cut off',
    );
    await until(() => upstream.requests.length > 0);
    await log.stop();
    expect(await answer).toBe('cut off');
    expect(await portIsFree(log.port)).toBe(true);
  });

  it('stops once however often asked, without waiting for a client that sent nothing', async () => {
    const log = await startRequestLog({ target: upstream.url, host: '127.0.0.1', port: 0, log: () => undefined });
    expect(log.url).toBe(`http://127.0.0.1:${log.port}`);
    const idle: Socket = connect(log.port, '127.0.0.1');
    await new Promise((resolve) => idle.once('connect', resolve));
    const closed = new Promise((resolve) => idle.once('close', resolve));
    const first = log.stop();
    expect(log.stop()).toBe(first);
    await first;
    await closed;
    expect(await portIsFree(log.port)).toBe(true);
  });
});

// `sandbox --host 0.0.0.0` printed http://0.0.0.0:N in its banner and curl lines, a URL the client and verify
// refuse (plain http to a host that is not loopback): the URL shown is this machine's loopback instead.
describe('the URL a banner shows', () => {
  it.each([
    ['0.0.0.0', 'http://127.0.0.1:4020'],
    ['::', 'http://[::1]:4020'],
    ['127.0.0.1', 'http://127.0.0.1:4020'],
    ['::1', 'http://[::1]:4020'],
    ['192.168.0.10', 'http://192.168.0.10:4020'],
  ])('for --host %s is %s', (host, url) => {
    expect(reachableUrl(host, 4020)).toBe(url);
  });
});
