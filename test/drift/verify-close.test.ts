// verify leaves no connection open: with a private CA (and client credentials) its requests go over
// pooled TLS connections, kept alive between requests, and the run's end closes them, so the
// command exits at once. A local HTTPS server on 127.0.0.1 counts its open connections.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFrom } from '../../src/cli/connection/credentials.js';
import { makeTestCerts, type TestCerts } from '../support/certs.js';
import { main } from './verify-cli.js';

let certs: TestCerts;
let server: Server;
let url: string;

beforeAll(async () => {
  certs = await makeTestCerts();
  server = createServer({ cert: certs.server.cert, key: certs.server.key }, (req, res) => {
    req.resume();
    const token = req.url?.endsWith('/oauth/token');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        token
          ? { access_token: 'issued-token-0123456789', token_type: 'Bearer', expires_in: 300 }
          : { cursor: { next: null }, data: [] },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
// A test that fails leaves its connections open; the next starts from none.
afterEach(() => {
  server.closeAllConnections();
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await certs?.remove();
});

const openConnections = () =>
  new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

/** Open connections once the server has seen every close the client sent (a bounded number of event-loop turns, no clock). */
async function settledConnections(): Promise<number> {
  for (let turn = 0; turn < 2_000; turn += 1) {
    if ((await openConnections()) === 0) return 0;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return openConnections();
}

describe('verify closes its connections', () => {
  it('a token and a private CA: the connection stays open between requests and is closed by close()', async () => {
    const source = credentialsFrom({ token: 'tok-0123456789', ca: join(certs.dir, 'test-ca.crt') }, {});
    const response = await source.fetch!(`${url}/v2/api/pix/keys/list-keys`, { method: 'GET' });
    await response.text();
    expect(await openConnections()).toBe(1);
    await source.close();
    expect(await settledConnections()).toBe(0);
  });

  it("client credentials and a private CA: the token endpoint's connection and the API's are both closed", async () => {
    const source = credentialsFrom(
      { 'token-url': `${url}/oauth/token`, 'client-id': 'cid', ca: join(certs.dir, 'test-ca.crt') },
      { BAAS_CLIENT_SECRET: 'client-secret-0123456789' },
    );
    expect(await source.authorization()).toBe('Bearer issued-token-0123456789');
    await (await source.fetch!(`${url}/v2/api/pix/keys/list-keys`, { method: 'GET' })).text();
    expect(await openConnections()).toBe(2);
    await source.close();
    expect(await settledConnections()).toBe(0);
  });

  it('main closes them when the run ends', async () => {
    const lines: string[] = [];
    const code = await main(
      ['--base-url', url, '--token', 'tok-0123456789', '--ca', join(certs.dir, 'test-ca.crt'), '--pages', '1'],
      { out: (t) => lines.push(t), err: (t) => lines.push(t), env: {} },
    );
    expect(code).toBe(1);
    expect(await settledConnections()).toBe(0);
  });
});
