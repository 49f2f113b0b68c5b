// A request its client abandons, mid-body or mid-answer: the request log cancels its request to the
// server behind at once (the server behind sees it close; no connection is left open) and logs one
// line for it. Everything is awaited on events: no sleeps, no timed assertions.
import {
  createServer,
  request,
  type ClientRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRequestLog, type RequestLog } from '../../src/cli/request-log.js';
import { until } from './in-process.js';

const N = 20;
let behind: Server;
let front: RequestLog;
const lines: string[] = [];
const open = new Set<Socket>();
// Requests the server behind has received, and those it has seen close.
let received: { req: IncomingMessage; res: ServerResponse }[] = [];
let closed = 0;
let onRequest: (req: IncomingMessage, res: ServerResponse) => void = () => {};

beforeAll(async () => {
  behind = createServer((req, res) => {
    received.push({ req, res });
    req.once('close', () => (closed += 1));
    onRequest(req, res);
  });
  behind.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => behind.listen(0, '127.0.0.1', resolve));
  front = await startRequestLog({
    target: `http://127.0.0.1:${(behind.address() as AddressInfo).port}`,
    host: '127.0.0.1',
    port: 0,
    log: (line) => lines.push(line),
  });
});
afterAll(async () => {
  await front?.stop();
  behind?.closeAllConnections();
  await new Promise((resolve) => behind?.close(resolve));
});
beforeEach(() => {
  lines.length = 0;
  received = [];
  closed = 0;
});

/** A PUT to the front that announces a 1000-byte body and sends 10 bytes of it. */
function partialPut(path: string): ClientRequest {
  const client = request({
    host: '127.0.0.1',
    port: front.port,
    method: 'PUT',
    path,
    headers: { 'content-length': '1000', 'content-type': 'application/json' },
  });
  client.on('error', () => {});
  client.write('{"a":"1234');
  return client;
}

describe('a client that goes away', () => {
  it(`mid-body, ${N} times at once: each request behind is closed at once, no connection is left open, ${N} lines`, async () => {
    onRequest = () => {};
    const clients = Array.from({ length: N }, (_, i) => partialPut(`/v2/upload/${i}?DocumentNumber=52998224725`));
    // Only once every request has reached the server behind do the clients go away.
    await until(() => received.length === N);
    for (const client of clients) client.destroy();
    await until(() => closed === N && open.size === 0 && lines.length === N);
    expect(received.every(({ req }) => !req.complete)).toBe(true);
    expect(lines.map((line) => line.replace(/\/\d+ /, '/i ').replace(/\d+ ms/, 'n ms'))).toEqual(
      Array(N).fill('PUT /v2/upload/i (client went away after n ms)'),
    );
    expect(new Set(lines.map((line) => /\/(\d+) /.exec(line)?.[1])).size).toBe(N);
  });

  it('mid-answer: the answer behind is cancelled and the line carries its status', async () => {
    onRequest = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part');
    };
    const client = request({ host: '127.0.0.1', port: front.port, path: '/stream' });
    client.on('error', () => {});
    const answer = await new Promise<IncomingMessage>((resolve) => client.once('response', resolve).end());
    // The client has the start of the answer, then leaves.
    await new Promise((resolve) => answer.once('data', resolve));
    client.destroy();
    await until(() => closed === 1 && open.size === 0 && lines.length === 1);
    expect(received[0]!.res.writableFinished).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/^GET \/stream HTTP 200 \(client went away after \d+ ms\)$/)]);
  });

  it('a client that waits for its whole answer gets one ordinary line, and nothing behind is cut', async () => {
    onRequest = (req, res) => {
      req.resume().once('end', () => res.writeHead(201).end('done'));
    };
    const client = partialPut('/whole');
    const answer = new Promise<IncomingMessage>((resolve) => client.once('response', resolve));
    client.end('x'.repeat(990));
    const body = await new Promise<string>((resolve) => {
      let text = '';
      void answer.then((res) => res.on('data', (chunk) => (text += chunk)).once('end', () => resolve(text)));
    });
    expect(body).toBe('done');
    await until(() => lines.length === 1 && closed === 1);
    expect(received[0]!.req.complete).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^PUT \/whole HTTP 201 in \d+ ms$/)]);
  });

  it('a request in flight when the log stops: cancelled behind, and its line says the log stopped', async () => {
    const log: string[] = [];
    const own = await startRequestLog({
      target: `http://127.0.0.1:${(behind.address() as AddressInfo).port}`,
      host: '127.0.0.1',
      port: 0,
      log: (line) => log.push(line),
    });
    onRequest = () => {};
    const client = request({ host: '127.0.0.1', port: own.port, path: '/never' });
    client.on('error', () => {});
    client.end();
    await until(() => received.length === 1);
    await own.stop();
    await until(() => closed === 1 && log.length === 1);
    expect(log).toEqual([expect.stringMatching(/^GET \/never \(request log stopped after \d+ ms\)$/)]);
  });
});
