// Jest (NestJS' default runner) in a CommonJS project: the client and the sandbox load with
// `require`, no ESM flag (with @faker-js/faker 9.9, which ships CommonJS; Faker 10 does not). The sandbox runs in process (its fetch is the client's fetch), and once
// over HTTP, which loads its optional peer @hono/node-server from CommonJS.
const {
  createBaasClient,
  BaasApiError,
  BaasValidationError,
  validateNaturalPersonUpdate,
  isValidCpf,
} = require('baas-pix-contract');
const { createSandbox } = require('baas-pix-contract/sandbox');

const sandbox = createSandbox({ seed: 'jest', clients: 2, accountsPerClient: 2, keysPerAccount: 5 });
const [me, other] = sandbox.clients;
const client = (options = {}) =>
  createBaasClient({
    baseUrl: 'https://sandbox.baas.example',
    token: me.token,
    userAgent: 'jest-consumer/1.0',
    fetch: sandbox.fetch,
    ...options,
  });

afterEach(() => sandbox.reset());

test('seeds data valid for the contract with the Faker this project has', () => {
  expect(require('@faker-js/faker/package.json').version).toMatch(/^9\./);
  for (const account of sandbox.snapshot().clients.flatMap((client) => client.accounts)) {
    expect(validateNaturalPersonUpdate(account.data)).toEqual([]);
  }
  for (const account of [...me.accounts, ...other.accounts]) expect(isValidCpf(account.documentNumber)).toBe(true);
});

test('walks every PIX key of the calling client across real pages', async () => {
  const ids = new Set();
  for await (const key of client().pixKeys({ limit: 3 })) {
    expect(me.accounts.map((account) => account.accountId)).toContain(key.account_id);
    ids.add(key.id);
  }
  expect(ids.size).toBe(10);
});

test("an update is kept by the sandbox; another client's customer is 403", async () => {
  const [mine] = me.accounts;
  await client().updateNaturalPerson({
    account: mine.account,
    documentNumber: mine.documentNumber,
    body: { email: 'jest@example.com' },
  });
  expect(sandbox.snapshot().clients[0].accounts[0].data.email).toBe('jest@example.com');
  const [theirs] = other.accounts;
  const error = await client({ retry: false })
    .updateNaturalPerson({
      account: theirs.account,
      documentNumber: theirs.documentNumber,
      body: { email: 'x@example.com' },
    })
    .catch((e) => e);
  expect(error).toBeInstanceOf(BaasApiError);
  expect(error.status).toBe(403);
});

test('a CPF with a wrong check digit is refused before anything is sent', async () => {
  const before = JSON.stringify(sandbox.snapshot());
  await expect(
    client().updateNaturalPerson({ account: '300541976902', documentNumber: '52998224724', body: { email: 'a@b.co' } }),
  ).rejects.toBeInstanceOf(BaasValidationError);
  expect(JSON.stringify(sandbox.snapshot())).toBe(before);
});

test('a 429 from the server is a BaasApiError with its status', async () => {
  sandbox.inject({ operation: 'listPixKeys', status: 429, headers: { 'retry-after': '1' } });
  const error = await client({ retry: false })
    .listPixKeys()
    .catch((e) => e);
  expect(error).toBeInstanceOf(BaasApiError);
  expect(error.status).toBe(429);
});

test('over HTTP on 127.0.0.1 (listen(), @hono/node-server loaded from CommonJS)', async () => {
  const server = await sandbox.listen();
  try {
    const keys = [];
    const overHttp = createBaasClient({ baseUrl: server.url, token: me.token, userAgent: 'jest-consumer/1.0' });
    for await (const key of overHttp.pixKeys({ limit: 4 })) keys.push(key.id);
    expect(keys).toHaveLength(10);
  } finally {
    await server.stop();
  }
});
