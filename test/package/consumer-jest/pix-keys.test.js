// Jest (NestJS' default runner) in a CommonJS project: the client loads with `require`, no ESM flag.
const { createBaasClient, ApiError, ValidationError } = require('baas-pix-contract');
const { preferHeaders } = require('baas-pix-contract/testing');
const { startBackend } = require('./backend');

let backend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(() => backend?.stop());

test('lists the PIX keys of the account', async () => {
  const baas = createBaasClient({ baseUrl: backend.url, token: 'jest-token', userAgent: 'jest-consumer/1.0' });
  const keys = [];
  for await (const key of baas.pixKeys({ limit: 2, maxPages: 1 })) keys.push(key.key_type);
  expect(keys.length).toBeGreaterThan(0);
});

test('a CPF with a wrong check digit is refused before anything is sent', async () => {
  const baas = createBaasClient({ baseUrl: backend.url, token: 'jest-token', userAgent: 'jest-consumer/1.0' });
  await expect(baas.updateNaturalPerson({ account: '300541976902', documentNumber: '52998224724', body: { email: 'a@b.co' } })).rejects.toBeInstanceOf(ValidationError);
});

test('a 429 from the server is an ApiError with its status', async () => {
  const baas = createBaasClient({
    baseUrl: backend.url,
    token: 'jest-token',
    retry: false,
    fetch: (request) => {
      for (const [name, value] of Object.entries(preferHeaders({ code: 429 }))) request.headers.set(name, value);
      return fetch(request);
    },
  });
  const error = await baas.listPixKeys().catch((e) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error.status).toBe(429);
});
