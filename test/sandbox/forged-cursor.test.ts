// A cursor forged with the sandbox's public seed for a position at or past the end of the list is a
// 400 (bad-cursor), like a tampered one; it used to build a page past the keys and answer 500.
import { describe, expect, it } from 'vitest';
import { Cursors } from '../../src/sandbox/cursor.js';
import { hashSeed } from '../../src/sandbox/random.js';
import { createSandbox } from '../../src/sandbox/index.js';

const SIZES = { clients: 1, accountsPerClient: 1, keysPerAccount: 3 };
// The secret the sandbox signs cursors with: its seed and sizes, all public.
const forge = (offset: number) => new Cursors(`${hashSeed('baas-pix-contract')}:1:1:3`).encode(0, offset);

describe('a forged sandbox cursor', () => {
  const sandbox = createSandbox(SIZES);
  const list = (cursor: string) =>
    sandbox.fetch(`https://sandbox.test/v2/api/pix/keys/list-keys?limit=1&cursor=${cursor}`, {
      headers: { authorization: `Bearer ${sandbox.clients[0]!.token}`, 'user-agent': 'forged-cursor-test/1' },
    });

  it('signed for a position inside the list is served (the forging is right)', async () => {
    const response = await list(forge(1));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it.each([0, 3, 4, 1_000_000, 36 ** 10 - 1])(
    'signed for offset %d (not one the sandbox issues) is a 400',
    async (offset) => {
      const response = await list(forge(offset));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ status: 400, type: expect.stringContaining('bad-cursor') });
    },
  );
});
