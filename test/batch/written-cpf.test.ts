// updateMany takes a CPF as people write it (`529.982.247-25`) and sends the contract's 11 digits.
import { describe, expect, it } from 'vitest';
import { createBaasClient, updateMany } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { BASE_URL } from './support.js';

const written = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

describe('updateMany with written CPFs', () => {
  it('sends each as its 11 digits, and the service updates every customer', async () => {
    const sandbox = createSandbox({ accountsPerClient: 3, keysPerAccount: 1 });
    const seeded = sandbox.clients[0]!;
    const sentDocuments: (string | null)[] = [];
    const client = createBaasClient({
      baseUrl: BASE_URL,
      token: seeded.token,
      fetch: (input, init) => {
        sentDocuments.push(new URL(String(input)).searchParams.get('DocumentNumber'));
        return sandbox.fetch(input, init);
      },
    });
    const items = seeded.accounts.map((account) => ({
      account: account.account,
      documentNumber: written(account.documentNumber),
      body: { email: 'written@example.com' },
    }));
    const results = [];
    for await (const result of updateMany(client, items)) results.push(result);
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    expect(sentDocuments.sort()).toEqual(seeded.accounts.map((account) => account.documentNumber).sort());
    expect(items[0]!.documentNumber).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
  });
});
