// The README's key-walking loop against the sandbox, in process: real pages, every key once.
import { describe, expect, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import type { PixKey } from '../../src/types.js';
import { createSandbox } from '../../src/sandbox/index.js';

describe('walking the keys', () => {
  it('2 accounts × 617 keys, limit 100: 1,234 distinct keys in 13 requests', async () => {
    const sandbox = createSandbox({ seed: 'walk', accountsPerClient: 2, keysPerAccount: 617 });
    let requests = 0;
    const baas = createBaasClient({
      baseUrl: 'https://sandbox.baas.example',
      token: sandbox.clients[0]!.token,
      fetch: (url, init) => {
        requests += 1;
        return sandbox.fetch(url, init);
      },
    });
    const ids = new Set<string>();
    for await (const key of baas.pixKeys({ limit: 100 })) ids.add(key.id);
    expect(ids.size).toBe(1234);
    expect(requests).toBe(13);
  });

  it('gives every key once to walks running at the same time, and honours the default and maximum limit', async () => {
    const sandbox = createSandbox({ seed: 'concurrent', clients: 2, accountsPerClient: 3, keysPerAccount: 150 });
    const walk = async (client: number, limit?: number) => {
      const baas = createBaasClient({
        baseUrl: 'https://sandbox.baas.example',
        token: sandbox.clients[client]!.token,
        fetch: sandbox.fetch,
      });
      const keys: PixKey[] = [];
      for await (const key of baas.pixKeys(limit ? { limit } : {})) keys.push(key);
      return keys;
    };
    const [a, b, c] = await Promise.all([walk(0, 7), walk(0), walk(1, 200)]);
    expect(new Set(a.map((k) => k.id)).size).toBe(450);
    expect(b.map((k) => k.id)).toEqual(a.map((k) => k.id));
    const mine = new Set(sandbox.clients[1]!.accounts.map((x) => x.accountId));
    expect(c.every((k) => mine.has(k.account_id))).toBe(true);
    const baas = createBaasClient({
      baseUrl: 'https://sandbox.baas.example',
      token: sandbox.clients[0]!.token,
      fetch: sandbox.fetch,
    });
    expect((await baas.listPixKeys()).data).toHaveLength(50);
    expect((await baas.listPixKeys({ limit: 200 })).data).toHaveLength(200);
  });

  it("refuses another client's cursor with a 400 problem", async () => {
    const sandbox = createSandbox({ seed: 'foreign', clients: 2, keysPerAccount: 10 });
    const get = (client: number, query: string) =>
      sandbox.fetch(
        new Request(`http://s/v2/api/pix/keys/list-keys?${query}`, {
          headers: { authorization: `Bearer ${sandbox.clients[client]!.token}`, 'user-agent': 't/1' },
        }),
      );
    const next = ((await (await get(0, 'limit=3')).json()) as { cursor: { next: string } }).cursor.next;
    expect((await get(0, `cursor=${next}`)).status).toBe(200);
    const foreign = await get(1, `cursor=${next}`);
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as { detail: string }).detail).toMatch(/cursor/);
  });
});
