// The raw client checks what it is given as strictly as the typed operations: a misspelled member of
// an object literal written in the call is a compile error (openapi-fetch alone infers the argument
// and accepts it, openapi-ts/openapi-typescript#1769).
import { describe, expectTypeOf, it } from 'vitest';
import type { Client, MethodResponse } from 'openapi-fetch';
import { createBaasClient } from '../../src/index.js';
import type { NaturalPersonUpdate, UpdateResult, paths } from '../../src/types.js';

const baas = createBaasClient({ baseUrl: 'https://api.baas.example', token: 't' });
const raw = createBaasClient({ baseUrl: 'https://api.baas.example', token: 't', retry: false }).raw;
const UPDATE = '/v2/api/baas-onboarding/account/natural-person';
const LIST = '/v2/api/pix/keys/list-keys';
const query = { Account: '300541976902', DocumentNumber: '52998224725' };
const header = { 'User-Agent': 'acme-payments/1.4.2' };

describe('raw client types', () => {
  it('rejects a misspelled body field in baas.raw.PUT, beside a right one, as the typed operation does', () => {
    void baas.raw.PUT(UPDATE, {
      params: { query },
      // @ts-expect-error phoneNumber, not phoneNumbr
      body: { email: 'maria@exemplo.com.br', phoneNumbr: '+5511987654321' },
    });
    void baas.updateNaturalPerson({
      account: '300541976902',
      documentNumber: '52998224725',
      // @ts-expect-error phoneNumber, not phoneNumbr
      body: { email: 'maria@exemplo.com.br', phoneNumbr: '+5511987654321' },
    });
  });

  it('rejects it alone, and in a raw client of other options', () => {
    // @ts-expect-error phoneNumber, not phoneNumbr
    void baas.raw.PUT(UPDATE, { params: { query }, body: { phoneNumbr: '+5511987654321' } });
    // @ts-expect-error phoneNumber, not phoneNumbr
    void raw.PUT(UPDATE, { params: { query }, body: { email: 'maria@exemplo.com.br', phoneNumbr: '+5511987654321' } });
  });

  it('rejects misspelled parameters and options', () => {
    // @ts-expect-error limit, not limt
    void baas.raw.GET(LIST, { params: { header, query: { limt: 5 } } });
    // @ts-expect-error body, not bdy
    void baas.raw.PUT(UPDATE, { params: { query }, bdy: { email: 'maria@exemplo.com.br' } });
    // @ts-expect-error the update needs its query (Account and DocumentNumber)
    void baas.raw.PUT(UPDATE);
  });

  it('checks a body built beforehand when it is typed as the contract says', () => {
    // @ts-expect-error phoneNumber, not phoneNumbr
    const body = { email: 'maria@exemplo.com.br', phoneNumbr: '+5511987654321' } satisfies NaturalPersonUpdate;
    void body;
  });

  it('still takes every right call, and types data by parseAs', async () => {
    const updated = await baas.raw.PUT(UPDATE, {
      params: { query },
      body: { phoneNumber: '+5511987654321' },
      headers: { Prefer: 'code=200' },
      signal: AbortSignal.timeout(1_000),
    });
    expectTypeOf(updated.data).toEqualTypeOf<UpdateResult | undefined>();
    const page = await raw.GET(LIST, { params: { header, query: { limit: 5, cursor: 'c' } } });
    // What openapi-fetch itself makes of the answer.
    expectTypeOf(page.data).toEqualTypeOf<MethodResponse<Client<paths>, 'get', typeof LIST> | undefined>();
    expectTypeOf(page.data?.cursor.next).toEqualTypeOf<string | null | undefined>();
    const text = await raw.GET(LIST, { params: { header }, parseAs: 'text' });
    expectTypeOf(text.data).toEqualTypeOf<string | undefined>();
  });
});
