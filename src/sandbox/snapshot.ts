// The state as plain JSON for assertions. No tokens, and CPFs masked to their last two digits, in
// the seeded fields and in whatever a client wrote (a CPF typed into a name or an address field).
import { maskDigits, redactJson, redactText } from '../redact.js';
import type { PixKey } from '../types.js';
import type { CustomerData, SeededAccount, World } from './data.js';

/** One customer account in a snapshot: its identifiers, its current data and its keys. */
export interface SnapshotAccount {
  /** The `account_id` its keys carry. */
  accountId: string;
  /** The `Account` query parameter of an update. */
  account: string;
  /** The CPF, masked: `*********25`. */
  documentNumber: string;
  /** The customer's name (synthetic). */
  name: string;
  /** The customer's registration data as it is now (after the updates the sandbox took). */
  data: CustomerData;
  /** The account's PIX keys. */
  keys: PixKey[];
}

/** `sandbox.snapshot()`: the state as plain JSON, for assertions (CPFs masked, no tokens, no client secrets). */
export interface SandboxSnapshot {
  /** Each seeded client's accounts, in the order of `sandbox.clients`. */
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
