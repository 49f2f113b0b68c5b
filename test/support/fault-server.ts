// A node:http server on 127.0.0.1 whose behaviour each test sets; every socket is destroyed on close.
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

export async function startFaultServer(): Promise<FaultServer> {
  let handler: Handler = (_req, res) => res.writeHead(500).end();
  const sockets = new Set<Socket>();
  const requests: FaultServer['requests'] = [];
  const server = createServer(async (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      await handler(req, res, body);
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
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
