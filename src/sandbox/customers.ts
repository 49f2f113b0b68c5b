// The customers' registration data, found by the `Account` and `DocumentNumber` of an update. An
// update replaces an account's data object, never changes one in place, so the seeded objects stay
// as they were and `reset()` puts them back without a copy of its own.
import type { NaturalPersonUpdate } from '../types.js';
import type { CustomerData, SeededAccount, World } from './data.js';

export class Customers {
  private readonly byAccount = new Map<string, SeededAccount>();
  /** seeded[clientIndex][accountIndex]: the data each account was created with. */
  private readonly seeded: CustomerData[][];

  constructor(private readonly world: World) {
    for (const accounts of world.accounts)
      for (const account of accounts) this.byAccount.set(`${account.account}/${account.documentNumber}`, account);
    this.seeded = world.accounts.map((accounts) => accounts.map((account) => account.data));
  }

  find(account: string, documentNumber: string): SeededAccount | undefined {
    return this.byAccount.get(`${account}/${documentNumber}`);
  }

  /** Top-level fields replace the stored ones; an address is replaced whole. */
  update(account: SeededAccount, body: NaturalPersonUpdate): void {
    // The body was parsed for this request alone: nothing else holds its objects.
    account.data = { ...account.data, ...body } as CustomerData;
  }

  reset(): void {
    for (const [c, accounts] of this.world.accounts.entries())
      for (const [a, account] of accounts.entries()) account.data = this.seeded[c]![a]!;
  }
}
