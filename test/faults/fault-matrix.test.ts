// Every way a server or network can fail, against the client: the error class it must become, no
// unhandled rejection, no open handle, and no secret in the error. The matrix is printed at the end.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, BaasError, NetworkError, ResponseError, TimeoutError, createBaasClient, type BaasClientOptions } from '../../src/index.js';
import { freePort } from '../../src/testing/mock.js';
import { json, startFaultServer, type FaultServer, type Handler } from '../support/fault-server.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF, firstPageKeys } from '../support/fixtures.js';

type Expected = typeof TimeoutError | typeof NetworkError | typeof ResponseError | typeof ApiError | 'data';
interface Fault {
  fault: string;
  expected: Expected;
  handler?: Handler;
  operation?: 'list' | 'update';
  options?: Partial<BaasClientOptions>;
  baseUrl?: () => Promise<string>;
  /** Extra checks on the server's side, e.g. what a second origin saw. */
  after?: () => void;
}

let server: FaultServer;
let elsewhere: FaultServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
const observed: { fault: string; expected: string; observed: string }[] = [];

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  [server, elsewhere] = await Promise.all([startFaultServer(), startFaultServer()]);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await Promise.all([server.close(), elsewhere.close()]);
  console.log('\nFault matrix\n' + table(observed));
});

function table(rows: typeof observed): string {
  const widths = (['fault', 'expected', 'observed'] as const).map((key) => Math.max(key.length, ...rows.map((row) => row[key].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(['fault', 'expected', 'observed']), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line([r.fault, r.expected, r.observed]))].join('\n');
}

const page = { cursor: { next: null }, data: firstPageKeys() };
const bigPage = () => {
  // About 30 MB of key records: a legitimate but huge page.
  const keys = Array.from({ length: 60_000 }, (_, i) => ({ ...firstPageKeys()[0]!, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, padding: 'x'.repeat(400) }));
  return JSON.stringify({ cursor: { next: null }, data: keys });
};

const faults: Fault[] = [
  { fault: 'refused connection', expected: NetworkError, baseUrl: async () => `http://127.0.0.1:${await freePort()}` },
  {
    fault: 'reset mid-body',
    expected: NetworkError,
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"cursor":{"next":null},"data":[');
      setTimeout(() => res.socket?.destroy(), 20);
    },
  },
  { fault: 'server never answers', expected: TimeoutError, handler: () => undefined },
  {
    fault: 'slow body (stalls after headers)',
    expected: TimeoutError,
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"cursor":');
    },
  },
  { fault: 'invalid JSON', expected: ResponseError, handler: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"cursor": nope}') },
  {
    fault: 'truncated JSON',
    expected: ResponseError,
    handler: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page).slice(0, 40)),
  },
  {
    fault: 'HTML error page (502)',
    expected: ResponseError,
    handler: (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end(`<html><body>Bad gateway for ${VALID_CPF}</body></html>`),
  },
  { fault: 'empty 200 on the list', expected: ResponseError, handler: (_req, res) => res.writeHead(200).end() },
  { fault: 'empty 200 on the update', expected: 'data', operation: 'update', handler: (_req, res) => res.writeHead(200).end() },
  {
    fault: '200 with the wrong content type',
    expected: ResponseError,
    handler: (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'),
  },
  {
    fault: '429 with Retry-After in seconds, then 200',
    expected: 'data',
    handler: (_req, res) => (server.requests.length === 1 ? json(res, 429, { title: 'Too many requests' }, { 'retry-after': '0' }) : json(res, 200, page)),
    after: () => expect(server.requests).toHaveLength(2),
  },
  {
    fault: '429 with Retry-After as a date, then 200',
    expected: 'data',
    handler: (_req, res) =>
      server.requests.length === 1 ? json(res, 429, { title: 'Too many requests' }, { 'retry-after': new Date(Date.now() - 1_000).toUTCString() }) : json(res, 200, page),
    after: () => expect(server.requests).toHaveLength(2),
  },
  {
    fault: '429 with Retry-After beyond the time budget',
    expected: ApiError,
    handler: (_req, res) => json(res, 429, { title: 'Too many requests' }, { 'retry-after': '3600' }),
    after: () => expect(server.requests).toHaveLength(1),
  },
  {
    fault: '503 until the retry bound',
    expected: ApiError,
    handler: (_req, res) => json(res, 503, { title: 'Service unavailable', status: 503 }),
    after: () => expect(server.requests).toHaveLength(3),
  },
  {
    fault: 'redirect to another origin',
    expected: ResponseError,
    handler: (_req, res) => res.writeHead(302, { location: `${elsewhere.url}/v2/api/pix/keys/list-keys` }).end(),
    after: () => expect(elsewhere.requests).toEqual([]),
  },
  {
    fault: 'redirect to the same origin (followed)',
    expected: 'data',
    handler: (req, res) => (req.url?.startsWith('/moved') ? json(res, 200, page) : res.writeHead(307, { location: '/moved' }).end()),
    after: () => expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${SECRET_TOKEN}`, `Bearer ${SECRET_TOKEN}`]),
  },
  {
    fault: 'a body of about 30 MB',
    expected: 'data',
    options: { timeoutMs: 20_000 },
    handler: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(bigPage()),
  },
];

describe('fault matrix', () => {
  it.each(faults)('$fault', async ({ fault, expected, handler, operation = 'list', options = {}, baseUrl, after }) => {
    elsewhere.handle((_req, res) => json(res, 200, page));
    server.handle(handler ?? (() => undefined));
    const client = createBaasClient({
      baseUrl: baseUrl ? await baseUrl() : server.url,
      token: SECRET_TOKEN,
      timeoutMs: 300,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 5_000 },
      ...options,
    });
    const outcome = await (operation === 'list'
      ? client.listPixKeys()
      : client.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: { socialName: 'Maria' } })
    ).then(
      () => 'data',
      (error: unknown) => error,
    );
    const name = outcome === 'data' ? 'data' : outcome instanceof BaasError ? outcome.name : `not a BaasError: ${String(outcome)}`;
    observed.push({ fault, expected: expected === 'data' ? 'data' : expected.name, observed: name });

    if (expected === 'data') expect(outcome).toBe('data');
    else {
      expect(outcome).toBeInstanceOf(expected);
      const forms = [(outcome as Error).message, JSON.stringify(outcome), inspect(outcome, { depth: 10 }), String(outcome)].join('\n');
      expect(forms).not.toContain(SECRET_TOKEN);
      expect(forms).not.toContain(VALID_CPF);
    }
    after?.();
    expect(unhandled).toEqual([]);
  }, 30_000);
});
