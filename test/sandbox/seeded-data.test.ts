// Seeded data: the same seed gives the same bytes; the data is valid for the contract and Brazilian.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { buildWorld, keyAt, keyJson } from '../../src/sandbox/data.js';
import { isValidCpf } from '../../src/validation/index.js';
import { schemaErrors } from '../support/ajv.js';
import { BRAZILIAN_STATES } from '../support/arbitraries.js';

const list = async (sandbox: ReturnType<typeof createSandbox>, token: string, limit = 200) =>
  (await sandbox.fetch(new Request(`http://sandbox.test/v2/api/pix/keys/list-keys?limit=${limit}`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' } }))).text();

describe('seeded data', () => {
  it('is byte for byte the same for the same seed, and differs for another seed', async () => {
    const a = createSandbox({ seed: 'ci', clients: 2, keysPerAccount: 30 });
    const b = createSandbox({ seed: 'ci', clients: 2, keysPerAccount: 30 });
    const c = createSandbox({ seed: 'other', clients: 2, keysPerAccount: 30 });
    expect(JSON.stringify(b.clients)).toBe(JSON.stringify(a.clients));
    expect(JSON.stringify(b.snapshot())).toBe(JSON.stringify(a.snapshot()));
    expect(await list(b, b.clients[1]!.token)).toBe(await list(a, a.clients[1]!.token));
    expect(JSON.stringify(c.snapshot())).not.toBe(JSON.stringify(a.snapshot()));
    expect(createSandbox({ seed: 7 }).clients).toEqual(createSandbox({ seed: 7 }).clients);
  });

  it('is valid for the contract and realistic for Brazil', () => {
    const sandbox = createSandbox({ seed: 3, clients: 3, accountsPerClient: 4, keysPerAccount: 40 });
    const snapshot = sandbox.snapshot();
    const types = new Set<string>();
    for (const client of sandbox.clients) for (const account of client.accounts) expect(isValidCpf(account.documentNumber)).toBe(true);
    for (const { accounts } of snapshot.clients) {
      for (const account of accounts) {
        expect(schemaErrors('/components/schemas/NaturalPersonUpdate', account.data)).toEqual([]);
        expect(account.data.email).toBe(account.data.email.toLowerCase());
        expect(account.data.phoneNumber).toMatch(/^\+55[0-9]{10,11}$/);
        expect(BRAZILIAN_STATES).toContain(account.data.address.state);
        for (const key of account.keys) {
          types.add(key.key_type);
          if (key.key_type === 'email') expect(key.key).toBe(key.key.toLowerCase());
        }
      }
    }
    expect([...types].sort()).toEqual(['cnpj', 'cpf', 'email', 'evp', 'phone']);
  });

  it('keeps tokens out of the snapshot and masks CPFs in it', () => {
    const sandbox = createSandbox({ seed: 5 });
    const text = JSON.stringify(sandbox.snapshot());
    expect(text).not.toContain(sandbox.clients[0]!.token);
    for (const account of sandbox.clients[0]!.accounts) expect(text).not.toContain(account.documentNumber);
    expect(text).not.toMatch(/"(document|key)":"[0-9]{11}"/);
  });

  it('writes a key as text exactly as JSON.stringify writes the key record', () => {
    const world = buildWorld('json', 2, 2, 300);
    world.accounts[1]![0]!.name = 'Conceição "Ção" D\'Ávila \\ Jr.';
    for (const accounts of world.accounts) {
      for (const account of accounts) {
        for (let index = 0; index < 300; index += 1) expect(keyJson(world, account, index)).toBe(JSON.stringify(keyAt(world, account, index)));
      }
    }
  });
});
