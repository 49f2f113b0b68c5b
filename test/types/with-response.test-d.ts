// What `.withResponse()` gives, by type: the operation's data beside the answer's metadata; the promise
// a typed method returns is still a Promise of the data, and a batch client may return plain promises.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createBaasClient,
  updateMany,
  type BatchClient,
  type RateLimitInfo,
  type WithResponse,
} from '../../src/index.js';
import type { PixKeyList, UpdateResult } from '../../src/types.js';

const client = createBaasClient({ baseUrl: 'https://api.baas.example', token: 't' });

describe('withResponse types', () => {
  it('resolves with the data of each operation and the metadata', () => {
    expectTypeOf(client.listPixKeys().withResponse()).resolves.toEqualTypeOf<WithResponse<PixKeyList>>();
    expectTypeOf(
      client.updateNaturalPerson({ account: '1', documentNumber: '52998224725', body: {} }).withResponse(),
    ).resolves.toEqualTypeOf<WithResponse<UpdateResult | undefined>>();
    expectTypeOf<WithResponse<PixKeyList>['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<WithResponse<PixKeyList>['rateLimit']>().toEqualTypeOf<RateLimitInfo | undefined>();
    expectTypeOf<WithResponse<PixKeyList>['response']['status']>().toEqualTypeOf<number>();
    expectTypeOf<WithResponse<PixKeyList>['attempts']>().toEqualTypeOf<number>();
  });

  it('is still a Promise of the data', () => {
    expectTypeOf(client.listPixKeys()).toMatchTypeOf<Promise<PixKeyList>>();
    expectTypeOf(client.listPixKeys().then((page) => page.data.length)).resolves.toBeNumber();
    // @ts-expect-error the data has no requestId: it is on withResponse()'s answer
    void client.listPixKeys().then((page) => page.requestId);
  });

  it('lets a batch client return a plain promise', () => {
    const fake: BatchClient = { updateNaturalPerson: async () => undefined };
    expectTypeOf(updateMany).toBeCallableWith(fake, []);
  });
});
