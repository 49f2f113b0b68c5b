// The sandbox behind Prism in proxy mode: Prism, the independent reader of the spec, finds nothing
// wrong with what the client sends or what the sandbox answers. A matrix file: it starts a Prism of its
// own, and npm test starts only the shared one (TESTING.md, "Quick and matrix"). The sandbox over HTTP
// without Prism: http.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BaasApiError, createBaasClient } from '../../src/index.js';
import { createSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { startPrismProxy } from './prism-proxy.js';

const sandbox = createSandbox({ seed: 'http', clients: 2, keysPerAccount: 40 });
const token = sandbox.clients[0]!.token;
const target = sandbox.clients[0]!.accounts[1]!;
let running: RunningSandbox;

beforeAll(async () => {
  running = await sandbox.listen();
});
afterAll(() => running?.stop());

describe('behind Prism in proxy mode (--errors)', () => {
  let proxy: Awaited<ReturnType<typeof startPrismProxy>>;
  beforeAll(async () => {
    proxy = await startPrismProxy(running.url);
  });
  afterAll(() => proxy?.stop());

  it('Prism finds nothing wrong with the requests or the responses of a walk, an update and errors', async () => {
    const baas = createBaasClient({ baseUrl: proxy.url, token, retry: false });
    const keys = [];
    for await (const key of baas.pixKeys({ limit: 30 })) keys.push(key);
    expect(keys).toHaveLength(80);
    await expect(
      baas.updateNaturalPerson({
        account: target.account,
        documentNumber: target.documentNumber,
        body: { email: 'bia@exemplo.com.br' },
      }),
    ).resolves.toEqual({ version: '1.0.0', status: 'SUCCESS' });
    const other = sandbox.clients[1]!.accounts[0]!;
    const forbidden = await baas
      .updateNaturalPerson({ account: other.account, documentNumber: other.documentNumber, body: { email: 'a@b.com' } })
      .catch((e: unknown) => e);
    expect((forbidden as BaasApiError).status).toBe(403);
    const raw = await fetch(`${proxy.url}/v2/api/pix/keys/list-keys?cursor=0.abc`, {
      headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' },
    });
    expect(raw.status).toBe(400);
    expect(raw.headers.get('sl-violations')).toBeNull();
  });
});
