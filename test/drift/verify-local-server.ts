// A local HTTP server for verify's tests whose handler the test writes: 127.0.0.1, a free port,
// every request recorded (with its Authorization header), always closed by the caller.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface LocalServer {
  url: string;
  origin: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startLocalServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<LocalServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url: origin,
    origin,
    received,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
