// A stranger watching `docs --serve`'s log while the try-it page gets a 422 saw "POST /call 200": the
// status of this server's relay, not the provider's. The line names the operation and what it answered.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDocsServer, type DocsServer } from '../../src/cli/docs-serve.js';

const log: string[] = [];
let server: DocsServer;
beforeAll(async () => {
  server = await startDocsServer({
    port: 0,
    allowWrites: false,
    log: (line) => log.push(line),
    page: async () => '<!DOCTYPE html><title>docs</title>',
    call: async () => ({ status: 422, headers: {}, body: '{"violations":[{"property":"limit"}]}' }),
  });
});
afterAll(() => server?.stop());

function call(body: string): Promise<number> {
  const url = new URL(server.url);
  const own = `http://${url.host}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}call`,
        method: 'POST',
        headers: { origin: own, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it("logs the provider's answer after the relay's own line", async () => {
  expect(
    await call(
      JSON.stringify({ operationId: 'listPixKeys', query: { limit: 'abc' }, headers: { 'User-Agent': 'a/1' } }),
    ),
  ).toBe(200);
  // The request log's own line (method, path, this server's 200, time), then the provider's status.
  expect(log.at(-1)).toMatch(/^docs --serve: POST \/call .*\b200\b.*; listPixKeys answered HTTP 422$/);
  // Never the query's values.
  expect(log.at(-1)).not.toContain('abc');
});
