// A node:http server on 127.0.0.1 whose behaviour each test sets; every socket is destroyed on close.
//
// Shared by the tests of a file, it never hands a late request from one test to the next. A request
// an earlier test abandoned can be read only after the next test's `handle()` (the client wrote it,
// then gave up and closed the connection before this server, in the same busy process, read it). Such
// a request comes on a connection accepted before the latest `handle()`, and its client has closed
// that connection by the time it is read: it is dropped, neither counted nor answered. A connection of
// an earlier test that a client reuses (undici keeps them) is still open, and its requests count.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => unknown;

export interface FaultServer {
  url: string;
  /** Requests received since the last `handle`, with their headers. */
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Whether the client had closed `socket` when its request was read. Its end, already there, is read
 * in the loop's next turn: two turns on, the socket has ended. No clock is involved, so no load changes it.
 */
async function closedByClient(socket: Socket): Promise<boolean> {
  await nextTurn();
  await nextTurn();
  return socket.destroyed || socket.readableEnded;
}

export async function startFaultServer(): Promise<FaultServer> {
  let handler: Handler = (_req, res) => res.writeHead(500).end();
  const sockets = new Set<Socket>();
  const generationOf = new WeakMap<Socket, number>();
  let generation = 0;
  const requests: FaultServer['requests'] = [];
  const server = createServer(async (req, res) => {
    if (generationOf.get(req.socket) !== generation && (await closedByClient(req.socket))) return;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      await handler(req, res, body);
    } catch {
      res.destroy();
    }
  });
  // Never close an idle connection: node:http's 5 s keep-alive timer races the client reusing it (undici
  // keeps it 4 s). In one busy process a loop stalled past that second (a 30 MB page parsed) let the
  // server's timer destroy a socket the client had just written on: a reset the client rightly retried,
  // so a case saw two attempts where one was meant. close() destroys every socket anyway.
  server.keepAliveTimeout = 0;
  server.on('connection', (socket) => {
    sockets.add(socket);
    generationOf.set(socket, generation);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
      requests.length = 0;
      generation += 1;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void => {
  res.writeHead(status, {
    'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
    ...headers,
  });
  res.end(JSON.stringify(body));
};
