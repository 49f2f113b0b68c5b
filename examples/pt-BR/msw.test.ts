// msw.test.ts
// O seu código como roda em produção, um cliente sem a opção `fetch`, testado contra o sandbox: o MSW
// intercepta o fetch global e encaminha as chamadas a ele. Requer `npm install --save-dev vitest@^4 msw@^2`.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BaasApiError, createBaasClient, type BaasClient } from 'baas-pix-contract';
import { createMswHandlers, createSandbox } from 'baas-pix-contract/sandbox';

const baseUrl = 'https://api.baas.example';
// Um cliente (token) com 2 contas de clientes de 5 chaves cada, todas ativas; os mesmos dados para a mesma semente.
const sandbox = createSandbox({ seed: 'my-msw-tests' });
const server = setupServer(...(await createMswHandlers(sandbox, { baseUrl, http })));

// Uma requisição que nenhum handler responde falha o teste em vez de chegar à rede.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => sandbox.reset());
afterAll(() => server.close());

// O código em teste: o que a sua aplicação faz com o cliente.
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
