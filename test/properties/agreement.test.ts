// The validators and the mock are two readers of one contract: they must agree on every valid
// update and on every update that breaks exactly one rule.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { validateListPixKeysQuery, validateNaturalPersonUpdate, validateUpdateNaturalPersonQuery } from '../../src/index.js';
import { account, cpf, cpfWithWrongCheckDigit, fullNaturalPersonUpdate, naturalPersonUpdate } from '../support/arbitraries.js';
import { TEST_TOKEN, mockUrl } from '../support/mock.js';
import { prismPaths } from '../support/prism-violations.js';

const RUNS = { seed: 20261122, numRuns: 200 };
const UPDATE = '/v2/api/baas-onboarding/account/natural-person';
const LIST = '/v2/api/pix/keys/list-keys';

async function putToMock(query: Record<string, string>, body: unknown): Promise<Response> {
  const url = new URL(mockUrl() + UPDATE);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response;
}

type Query = Record<string, string>;
type Case = { query: Query; body: Record<string, unknown>; path: string };

/** One rule broken on a valid request; `path` is where both readers must point. */
const mutations: fc.Arbitrary<(q: Query, b: Record<string, unknown>) => Case>[] = [
  // wrong pattern
  fc.constant((query, body) => ({ query, body: { ...body, phoneNumber: String(body.phoneNumber).slice(1) }, path: '/phoneNumber' })),
  fc.integer({ min: 1, max: 7 }).map((n) => (query, body) => ({
    query,
    body: { ...body, address: { ...(body.address as object), postalCode: '1'.repeat(n) } },
    path: '/address/postalCode',
  })),
  fc.constantFrom('23S', '1,5', '--1', '').map((bad) => (query, body) => ({
    query,
    body: { ...body, address: { ...(body.address as object), latitude: bad } },
    path: '/address/latitude',
  })),
  // value outside the enum
  fc.constantFrom('XX', 'sp', 'São Paulo', 'ZZ').map((bad) => (query, body) => ({
    query,
    body: { ...body, address: { ...(body.address as object), state: bad } },
    path: '/address/state',
  })),
  // wrong type
  fc.constantFrom<unknown>('true', 1, null, []).map((bad) => (query, body) => ({ query, body: { ...body, isPoliticallyExposedPerson: bad }, path: '/isPoliticallyExposedPerson' })),
  // too long
  fc.integer({ min: 121, max: 300 }).map((n) => (query, body) => ({ query, body: { ...body, socialName: 'a'.repeat(n) }, path: '/socialName' })),
  // unknown property
  fc.constantFrom('fullName', 'cpf', 'motherName', 'extra').map((key) => (query, body) => ({ query, body: { ...body, [key]: 'x' }, path: `/${key}` })),
  // missing required query parameter
  fc.constantFrom('Account', 'DocumentNumber').map((name) => (query, body) => {
    const { [name]: _dropped, ...rest } = query;
    return { query: rest, body, path: name };
  }),
  // wrong query pattern
  fc.constantFrom('12a', '1'.repeat(21), ' 1').map((bad) => (query, body) => ({ query: { ...query, Account: bad }, body, path: 'Account' })),
];

const sameField = (validatorPath: string, mockPaths: string[]) =>
  mockPaths.some((p) => p.toLowerCase() === validatorPath.toLowerCase());

describe('validators and mock agree', () => {
  test.prop([naturalPersonUpdate, cpf, account], RUNS)('every valid update passes pre-flight and gets a 2xx', async (body, documentNumber, acct) => {
    const query = { Account: acct, DocumentNumber: documentNumber };
    expect(validateUpdateNaturalPersonQuery(query)).toEqual([]);
    expect(validateNaturalPersonUpdate(body)).toEqual([]);
    const response = await putToMock(query, body);
    expect(prismPaths(response)).toEqual([]);
    expect(response.status).toBe(200);
  });

  test.prop([fullNaturalPersonUpdate, cpf, account, fc.oneof(...mutations)], RUNS)(
    'an update that breaks one rule is rejected by both, at the same field',
    async (valid, documentNumber, acct, mutate) => {
      const { query, body, path } = mutate({ Account: acct, DocumentNumber: documentNumber }, valid as Record<string, unknown>);
      const issues = [...validateUpdateNaturalPersonQuery(query), ...validateNaturalPersonUpdate(body)];
      expect(issues.map((i) => i.path)).toContain(path);
      expect(new Set(issues.map((i) => i.path))).toEqual(new Set([path]));
      const response = await putToMock(query, body);
      expect(response.status).toBe(422);
      expect(sameField(path, prismPaths(response))).toBe(true);
    },
  );

  test.prop([fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 201 }))], RUNS)('an out-of-range limit is rejected by both', async (limit) => {
    expect(validateListPixKeysQuery({ limit }).map((i) => i.path)).toEqual(['limit']);
    const response = await fetch(`${mockUrl()}${LIST}?limit=${limit}`, { headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'User-Agent': 'props/1' } });
    await response.arrayBuffer();
    expect(response.status).toBe(422);
    expect(prismPaths(response)).toContain('limit');
  });

  test.prop([fullNaturalPersonUpdate, cpfWithWrongCheckDigit, account], RUNS)(
    'a wrong CPF check digit: the validator rejects it, the mock cannot (a known difference)',
    async (body, documentNumber, acct) => {
      const query = { Account: acct, DocumentNumber: documentNumber };
      expect(validateUpdateNaturalPersonQuery(query).map((i) => i.path)).toEqual(['DocumentNumber']);
      const response = await putToMock(query, body);
      // JSON Schema has no check-digit rule, so Prism accepts the shape.
      expect(response.status).toBe(200);
    },
  );
});
