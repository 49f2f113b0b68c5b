// The state as plain JSON for assertions. No tokens, and CPFs masked to their last two digits, in
// the seeded fields and in whatever a client wrote (a CPF typed into a name or an address field).
import { maskDigits, redactJson, redactText } from '../redact.js';
import type { PixKey } from '../types.js';
import type { CustomerData, SeededAccount, World } from './data.js';

export interface SnapshotAccount {
  accountId: string;
  account: string;
  /** The CPF, masked: `*********25`. */
  documentNumber: string;
  name: string;
  data: CustomerData;
  keys: PixKey[];
}

export interface SandboxSnapshot {
  clients: { accounts: SnapshotAccount[] }[];
}

/** A CPF (or an account) shown by its last two digits: src/redact.ts's rule. */
export const maskCpf = maskDigits;

export function snapshotOf(world: World, keyAt: (account: SeededAccount, index: number) => PixKey): SandboxSnapshot {
  return {
    clients: world.accounts.map((accounts) => ({
      accounts: accounts.map((account) => ({
        accountId: account.accountId,
        account: account.account,
        documentNumber: maskCpf(account.documentNumber),
        name: redactText(account.name),
        data: redactJson(JSON.parse(JSON.stringify(account.data)) as CustomerData),
        keys: Array.from({ length: world.keysPerAccount }, (_, index) => {
          const key = keyAt(account, index);
          return {
            ...key,
            key: key.key_type === 'cpf' ? maskCpf(key.key) : key.key,
            beneficiary_entity: { ...key.beneficiary_entity, document: maskCpf(key.beneficiary_entity.document) },
          };
        }),
      })),
    })),
  };
}
