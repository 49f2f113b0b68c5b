// Loopback servers for the benchmarks, always closed by the caller.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(new URL('../../src/generated/openapi.json', import.meta.url), 'utf8'));
export const firstPage = JSON.stringify(spec.components.examples.FirstPage.value);
export const fullUpdate = spec.components.examples.FullUpdate.value;
export const keyRecord = spec.components.examples.FirstPage.value.data[0];

export interface Running {
  url: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<Running> {
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}

/** Answers every request with the list-keys example. */
export function exampleServer(): Promise<Running> {
  const body = Buffer.from(firstPage);
  return listen(
    createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    }),
  );
}

/** Pages made on the fly: cursor = page number, `pages` pages of `perPage` keys. */
export function pagingServer(pages: number, perPage: number): Promise<Running> {
  return listen(
    createServer((req, res) => {
      req.resume();
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? '1');
      const data = Array.from({ length: perPage }, (_, i) => ({
        ...keyRecord,
        id: `00000000-0000-4000-8000-${String(page * perPage + i).padStart(12, '0')}`,
      }));
      const body = JSON.stringify({ cursor: { next: page < pages ? String(page + 1) : null }, data });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }),
  );
}
