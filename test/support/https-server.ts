// A local HTTPS server on 127.0.0.1 and a free port, optionally requiring a client certificate.
// It answers every request with JSON naming the client certificate it saw.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface TestHttpsServer {
  url: string;
  close(): Promise<void>;
}

export async function startHttpsServer(options: {
  cert: string;
  key: string;
  ca: string;
  requireClientCert: boolean;
}): Promise<TestHttpsServer> {
  const server: Server = createServer(
    {
      cert: options.cert,
      key: options.key,
      ca: options.ca,
      requestCert: options.requireClientCert,
      rejectUnauthorized: options.requireClientCert,
    },
    (request, response) => {
      const socket = request.socket as TLSSocket;
      const peer = socket.getPeerCertificate();
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-1' });
        response.end(
          JSON.stringify({ method: request.method, path: request.url, body, client: peer?.subject?.CN ?? null }),
        );
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
