// msw.test.ts
// Your code as it runs in production, a client with no `fetch` option, tested against the sandbox: MSW
// intercepts the global fetch and routes the calls to it. Needs `npm install --save-dev vitest@^4 msw@^2`.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BaasApiError, createBaasClient, type BaasClient } from 'baas-pix-contract';
import { createMswHandlers, createSandbox } from 'baas-pix-contract/sandbox';

const baseUrl = 'https://api.baas.example';
// One client (token) with 2 customer accounts of 5 keys each, all active; the same data for the same seed.
const sandbox = createSandbox({ seed: 'my-msw-tests' });
const server = setupServer(...(await createMswHandlers(sandbox, { baseUrl, http })));

// A request no handler answers fails the test instead of reaching the network.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => sandbox.reset());
afterAll(() => server.close());

// The code under test: what your application does with the client.
async function activeKeys(baas: BaasClient): Promise<number> {
  let count = 0;
  for await (const key of baas.pixKeys({ limit: 3 })) if (key.key_status === 'active') count += 1;
  return count;
}

const [me] = sandbox.clients;
const baas = createBaasClient({ baseUrl, token: me!.token, userAgent: 'my-tests/1.0', retry: false });

it('counts the active keys of every account, page by page', async () => {
  expect(await activeKeys(baas)).toBe(10);
});

it('keeps an update', async () => {
  const { account, documentNumber } = me!.accounts[0]!;
  await baas.updateNaturalPerson({ account, documentNumber, body: { email: 'maria@exemplo.com.br' } });
  expect(sandbox.snapshot().clients[0]!.accounts[0]!.data.email).toBe('maria@exemplo.com.br');
});

it('turns an injected 503 into an BaasApiError', async () => {
  sandbox.inject({ operation: 'listPixKeys', status: 503, times: 1 });
  const error = await baas.listPixKeys().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(BaasApiError);
  expect((error as BaasApiError).status).toBe(503);
});
