// What an injected fetch must accept: `fetch(url: string, init)`, as the WHATWG fetch and undici's own
// `fetch` both do. The client never hands it a Request object built by another fetch implementation.
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF, firstPageKeys } from '../support/fixtures.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const page = { cursor: { next: null }, data: firstPageKeys() };

describe("undici's own fetch, injected", () => {
  const client = () =>
    createBaasClient({
      baseUrl: server.url,
      token: SECRET_TOKEN,
      retry: false,
      fetch: undiciFetch as unknown as typeof fetch,
    });

  it('lists keys', async () => {
    server.handle((_req, res) => json(res, 200, page));
    await expect(client().listPixKeys({ limit: 2 })).resolves.toEqual(page);
    expect(server.requests[0]?.url).toBe('/v2/api/pix/keys/list-keys?limit=2');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
  });

  it('sends an update with its body', async () => {
    let received = '';
    server.handle((_req, res, body) => {
      received = body;
      json(res, 200, { version: '1.0.0', status: 'SUCCESS' });
    });
    await client().updateNaturalPerson({
      account: VALID_ACCOUNT,
      documentNumber: VALID_CPF,
      body: { socialName: 'Maria' },
    });
    expect(JSON.parse(received)).toEqual({ socialName: 'Maria' });
  });

  it('serves raw too', async () => {
    server.handle((_req, res) => json(res, 200, page));
    const { data } = await client().raw.GET('/v2/api/pix/keys/list-keys', {
      params: { header: { 'User-Agent': 'x/1' } },
    });
    expect(data).toEqual(page);
  });
});
