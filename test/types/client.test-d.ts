// The client's types: wrong shapes fail to compile, results carry the named types.
import { describe, expectTypeOf, it } from 'vitest';
import { createBaasClient } from '../../src/index.js';
import type { PixKey, PixKeyList, UpdateResult } from '../../src/types.js';

const client = createBaasClient({ baseUrl: 'https://api.baas.example', token: 't' });
const address = {
  postalCode: '01310100',
  street: 'Av. Paulista',
  number: '1',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
};

describe('client types', () => {
  it('rejects a wrong body shape and a wrong state', () => {
    // @ts-expect-error socialname is misspelled
    void client.updateNaturalPerson({ account: '1', documentNumber: '52998224725', body: { socialname: 'Maria' } });
    void client.updateNaturalPerson({
      account: '1',
      documentNumber: '52998224725',
      // @ts-expect-error 'ZZ' is not a UF
      body: { address: { ...address, state: 'ZZ' } },
    });
    // @ts-expect-error documentNumber is required
    void client.updateNaturalPerson({ account: '1', body: { socialName: 'Maria' } });
  });

  it('resolves with the named types', () => {
    expectTypeOf(client.updateNaturalPerson).returns.resolves.toEqualTypeOf<UpdateResult | undefined>();
    expectTypeOf(client.listPixKeys).returns.resolves.toEqualTypeOf<PixKeyList>();
  });

  it('takes per-call options on every operation, beside the parameters', () => {
    const signal = new AbortController().signal;
    void client.listPixKeys({
      limit: 10,
      signal,
      timeoutMs: 2_000,
      retry: false,
      headers: { 'X-Correlation-Id': 'a' },
    });
    void client.updateNaturalPerson({
      account: '1',
      documentNumber: '52998224725',
      body: { socialName: 'Maria' },
      timeoutMs: 500,
      retry: { maxAttempts: 2 },
    });
    void client.pixKeys({ limit: 10, maxPages: 2, timeoutMs: 1_000, retry: false });
    // @ts-expect-error retry is a settings object or false
    void client.listPixKeys({ retry: 'yes' });
    // @ts-expect-error timeoutMs is a number of milliseconds
    void client.listPixKeys({ timeoutMs: '2s' });
  });

  it('pixKeys yields PixKey', () => {
    expectTypeOf(client.pixKeys()).toEqualTypeOf<AsyncIterable<PixKey>>();
  });
});
