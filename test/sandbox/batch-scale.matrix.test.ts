// The sandbox at the scale the README promises for batch work: 100,000 accounts for one client, its last
// customer updated. A scale case (about 40 s of CPU), so it runs in the matrix (`npm run test:all`).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { update } from './in-process.js';

describe('a sandbox for batch work', () => {
  it('of 100,000 accounts for one client, without keys: the last customer is updated', async () => {
    const sandbox = createSandbox({ seed: 'big', accountsPerClient: 100_000, keysPerAccount: 0 });
    const accounts = sandbox.clients[0]!.accounts;
    expect(accounts).toHaveLength(100_000);
    const last = accounts.at(-1)!;
    const body = { isPoliticallyExposedPerson: true, email: 'last@example.com' };
    expect((await update(sandbox, body, { account: 99_999 })).status).toBe(200);
    const stored = sandbox.snapshot().clients[0]!.accounts.at(-1)!;
    expect([stored.accountId, stored.data.email, stored.data.isPoliticallyExposedPerson]).toEqual([
      last.accountId,
      'last@example.com',
      true,
    ]);
  });
});
