// A stranger's `npx baas-pix-contract sandbox` without @redocly/cli installed: the banner prints the /docs
// address ("needs @redocly/cli"), and opening it ended the whole sandbox with a MissingPeerError stack trace
// (the page threw at once, inside the request handler). A page that throws is a 503 saying why, as one
// that rejects is, and the server goes on answering.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRequestLog, type RequestLog } from '../../src/cli/request-log.js';

const MISSING =
  'needs the Redocly CLI (@redocly/cli), an optional peer of this package that is not installed here: install it with `npm install --save-dev @redocly/cli@^2`, then run the command again';
const behind = createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
});
let front: RequestLog;
const log: string[] = [];
let asked = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => behind.listen(0, '127.0.0.1', resolve));
  front = await startRequestLog({
    target: `http://127.0.0.1:${(behind.address() as AddressInfo).port}`,
    host: '127.0.0.1',
    port: 0,
    log: (line) => log.push(line),
    pages: {
      '/docs': () => {
        asked += 1;
        // As redoclyCli() does when the peer is missing: a throw, not a rejected promise.
        throw new Error(MISSING);
      },
    },
  });
});
afterAll(async () => {
  await front?.stop();
  await new Promise<void>((resolve) => behind.close(() => resolve()));
});

function get(path: string): Promise<{ status: number; body: string }> {
  const url = new URL(front.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

it('answers 503 with the install command, and goes on serving the rest', async () => {
  const page = await get('/docs');
  expect(page.status).toBe(503);
  expect(page.body).toBe(`The docs page could not be rendered: ${MISSING}\n`);
  expect(log.at(-1)).toMatch(/^GET \/docs HTTP 503 in [0-9]+ ms$/);
  expect((await get('/v2/api/pix/keys/list-keys')).status).toBe(200);
  // Not kept: once the peer is installed, the next visit renders it.
  expect((await get('/docs')).status).toBe(503);
  expect(asked).toBe(2);
  // A backstop only: broken, the request is never answered (the throw ended the handler).
}, 30_000);
