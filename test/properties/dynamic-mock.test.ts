// Every response the mock generates in dynamic mode, for every documented status, conforms to the
// spec's schema and is read by the client as data or as the right error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createBaasClient, type BaasClient } from '../../src/index.js';
import { startMock, type RunningMock } from '../../src/testing/mock.js';
import { schemaErrors } from '../support/ajv.js';
import { deref, spec } from '../support/spec.js';
import { fullUpdate } from '../support/fixtures.js';

const PER_OPERATION = 200;
// Prism re-seeds its generator on every request, so one seed gives one body per status. Three
// fixed seeds give three different bodies per status, and every run is the same.
const SEEDS = ['baas-20261122-a', 'baas-20261122-b', 'baas-20261122-c'];
let mocks: RunningMock[] = [];

beforeAll(async () => {
  const started = await Promise.allSettled(SEEDS.map((seed) => startMock({ dynamic: true, seed })));
  mocks = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
}, 60_000);
afterAll(() => Promise.all(mocks.map((mock) => mock.stop())));

function clientPreferring(status: number, round: number): BaasClient {
  return createBaasClient({
    baseUrl: mocks[round % mocks.length]!.url,
    token: 'dynamic-token',
    retry: false,
    fetch: async (request) => {
      request.headers.set('Prefer', `code=${status}, dynamic=true`);
      const response = await fetch(request);
      // Keep a copy so the test can check the very body the client read.
      seen.push({ status: response.status, body: await response.clone().text(), type: response.headers.get('content-type') ?? '' });
      return response;
    },
  });
}
const seen: { status: number; body: string; type: string }[] = [];

const operations = [
  {
    id: 'updateNaturalPerson',
    path: '/v2/api/baas-onboarding/account/natural-person',
    method: 'put',
    call: (client: BaasClient) => client.updateNaturalPerson({ account: '300541976902', documentNumber: '52998224725', body: fullUpdate() }),
  },
  { id: 'listPixKeys', path: '/v2/api/pix/keys/list-keys', method: 'get', call: (client: BaasClient) => client.listPixKeys({ limit: 20 }) },
] as const;

describe.each(operations)('$id in dynamic mode', ({ path, method, call }) => {
  const responses = spec.paths[path]![method].responses as Record<string, unknown>;
  const statuses = Object.keys(responses).map(Number);
  const rounds = Math.ceil(PER_OPERATION / statuses.length);

  it(`conforms and parses for ${statuses.length} statuses, ${PER_OPERATION}+ responses`, async () => {
    let checked = 0;
    for (let round = 0; round < rounds; round += 1) {
      for (const status of statuses) {
        seen.length = 0;
        const outcome = await call(clientPreferring(status, round)).then(
          (data) => ({ data }),
          (error: unknown) => ({ error }),
        );
        const last = seen.at(-1)!;
        expect(last.status).toBe(status);
        const media = deref<any>(responses[String(status)]).content;
        const [type, content] = Object.entries<any>(media)[0]!;
        expect(last.type).toContain(type);
        const errors = schemaErrors(content.schema.$ref.slice(1), JSON.parse(last.body));
        expect(errors, `${status}: ${last.body.slice(0, 300)}`).toEqual([]);
        if (status < 300) expect(outcome).toEqual({ data: JSON.parse(last.body) });
        else {
          const error = 'error' in outcome ? outcome.error : undefined;
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(status);
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(PER_OPERATION);
  }, 120_000);
});
