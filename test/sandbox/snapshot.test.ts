// snapshot(): the state as a test asserts on it. The keys are the ones served, CPFs masked to their
// last two digits, and the snapshot is a copy: changing it changes nothing in the sandbox.
import { describe, expect, it } from 'vitest';
import type { PixKey } from '../../src/types.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { maskCpf } from '../../src/sandbox/snapshot.js';
import { answerOf, list } from './in-process.js';

describe('snapshot()', () => {
  it('masks a CPF to its last two digits; a value of two digits or fewer whole', () => {
    expect(['52998224725', '123', '12', '7', ''].map(maskCpf)).toEqual(['*********25', '*23', '**', '*', '']);
  });

  it('holds every account with the keys it serves, CPFs (document and cpf keys) masked, other keys whole', async () => {
    const sandbox = createSandbox({ seed: 'snap', clients: 2, keysPerAccount: 12 });
    const snapshot = sandbox.snapshot();
    for (const [c, client] of sandbox.clients.entries()) {
      const served = (await answerOf(await list(sandbox, '?limit=200', {}, c))).body.data as PixKey[];
      const accounts = snapshot.clients[c]!.accounts;
      expect(accounts.map((account) => [account.accountId, account.account, account.documentNumber])).toEqual(
        client.accounts.map((account) => [
          account.accountId,
          account.account,
          `*********${account.documentNumber.slice(-2)}`,
        ]),
      );
      const keys = accounts.flatMap((account) => account.keys);
      expect(keys).toEqual(
        served.map((key) => ({
          ...key,
          key: key.key_type === 'cpf' ? `*********${key.key.slice(-2)}` : key.key,
          // A CPF holder's document, and a company's CNPJ too (14 digits, 12 masked).
          beneficiary_entity: {
            ...key.beneficiary_entity,
            document: `${'*'.repeat(key.beneficiary_entity.document.length - 2)}${key.beneficiary_entity.document.slice(-2)}`,
          },
        })),
      );
      expect(keys.filter((key) => key.key_type === 'cnpj').every((key) => /^[0-9A-Z]{12}[0-9]{2}$/.test(key.key))).toBe(
        true,
      );
      expect(accounts.every((account) => account.name.length > 0)).toBe(true);
    }
  });

  it('is a copy: changing it leaves the sandbox as it was', () => {
    const sandbox = createSandbox({ seed: 'snap-copy' });
    const first = sandbox.snapshot();
    const account = first.clients[0]!.accounts[0]!;
    account.data.address.city = 'changed';
    account.data.email = 'changed@example.com';
    account.keys[0]!.beneficiary_entity.name = 'changed';
    expect(sandbox.snapshot()).not.toEqual(first);
    expect(sandbox.snapshot()).toEqual(createSandbox({ seed: 'snap-copy' }).snapshot());
  });
});
