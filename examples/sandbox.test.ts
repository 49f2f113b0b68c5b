// sandbox.test.ts
import { beforeEach, expect, it } from 'vitest';
import { BaasApiError, createBaasClient } from 'baas-pix-contract';
import { createSandbox } from 'baas-pix-contract/sandbox';

// One client (token) with 2 customer accounts of 617 keys each; the same data for the same seed.
const sandbox = createSandbox({ seed: 'my-tests', accountsPerClient: 2, keysPerAccount: 617 });
const [me] = sandbox.clients;
const baas = createBaasClient({ baseUrl: 'https://sandbox.baas.test', token: me!.token, fetch: sandbox.fetch, retry: false });

beforeEach(() => sandbox.reset());

it('walks every key of my accounts, page by page', async () => {
  const ids = new Set<string>();
  for await (const key of baas.pixKeys({ limit: 100 })) ids.add(key.id);
  expect(ids.size).toBe(1234); // 13 requests; the last page's cursor.next is null
});

it('keeps an update', async () => {
  const { account, documentNumber } = me!.accounts[0]!;
  await baas.updateNaturalPerson({ account, documentNumber, body: { email: 'maria@exemplo.com.br' } });
  expect(sandbox.snapshot().clients[0]!.accounts[0]!.data.email).toBe('maria@exemplo.com.br');
});

it('answers 503 when a fault is injected', async () => {
  sandbox.inject({ operation: 'listPixKeys', status: 503, times: 1 });
  const error = await baas.listPixKeys().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(BaasApiError);
  expect((error as BaasApiError).status).toBe(503);
});
