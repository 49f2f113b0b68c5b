// The types, the pre-flight validators and the mock are three readers of one contract. Generated
// valid requests must pass all of them; a valid request with exactly one rule broken must be
// rejected by the validators and by the mock, at the same field. The differences the mock cannot
// help (CPF check digits, Prism's leniency about query parameter names and empty values) are
// asserted explicitly, so they are known rather than hidden.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  BaasApiError,
  createBaasClient,
  isValidCpf,
  validateListPixKeysQuery,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
  type NaturalPersonUpdate,
} from '../../src/index.js';
import {
  ADDRESS_PROPERTIES,
  BODY_PROPERTIES,
  BRAZILIAN_STATES,
  CURSOR_MAX_LENGTH,
  FREE_TEXT_FIELDS,
  LIMIT_RANGE,
  REQUIRED_ADDRESS_FIELDS,
  STRING_FIELDS,
  account,
  cpf,
  cpfWithWrongCheckDigit,
  digits,
  e164,
  fullNaturalPersonUpdate,
  listQuery,
  naturalPersonUpdate,
  repeatedDigitCpf,
  stringSchemaAt,
  textOfLength,
} from '../support/arbitraries.js';
import { preflightUpdate } from '../../src/validation/index.js';
import { exampleValue } from '../support/fixtures.js';
import { TEST_TOKEN, TEST_USER_AGENT } from '../support/mock.js';
import { comparablePaths, prismPaths } from '../support/prism-violations.js';
import { OPERATIONS } from '../support/operations.js';
import { type Depth, runsAt } from './depth.js';

const SEED = 20261122;
const UPDATE = OPERATIONS.updateNaturalPerson.path;
const LIST = OPERATIONS.listPixKeys.path;
const HEADERS = {
  Authorization: `Bearer ${TEST_TOKEN}`,
  'User-Agent': TEST_USER_AGENT,
  Accept: 'application/json, application/problem+json',
};

type Query = Record<string, string>;
type Body = Record<string, unknown>;

/** Straight to the mock, no client and no pre-flight: what Prism alone makes of the request. */
async function putToMock(mockUrl: string, query: Query, body: unknown): Promise<Response> {
  const url = new URL(mockUrl + UPDATE);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method: 'PUT',
    headers: { ...HEADERS, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response;
}

async function listFromMock(mockUrl: string, query: Record<string, string | number>): Promise<Response> {
  const url = new URL(mockUrl + LIST);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  const response = await fetch(url, { headers: HEADERS });
  await response.arrayBuffer();
  return response;
}

/** A client against the mock that remembers what Prism said about each request. */
function recordingClient(mockUrl: string): {
  client: ReturnType<typeof createBaasClient>;
  seen: { status: number; violations: string[] }[];
} {
  const seen: { status: number; violations: string[] }[] = [];
  const client = createBaasClient({
    baseUrl: mockUrl,
    token: TEST_TOKEN,
    userAgent: TEST_USER_AGENT,
    retry: false,
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      seen.push({ status: response.status, violations: prismPaths(response) });
      return response;
    },
  });
  return { client, seen };
}

// ---------------------------------------------------------------------------------------------
// Mutations: each takes a valid request and breaks one rule; `path` is where both must point.

interface Case {
  rule: string;
  query: Query;
  body: unknown;
  path: string;
}
type Valid = { query: Query; body: Required<NaturalPersonUpdate> & { address: Body } };
type Mutation = fc.Arbitrary<(valid: Valid) => Case>;

const inBody =
  (rule: string, path: string, value: unknown) =>
  (valid: Valid): Case => {
    const body = structuredClone(valid.body) as Body;
    const [first, second] = path.split('/').slice(1) as [string, string | undefined];
    if (second === undefined) body[first] = value;
    else (body[first] as Body)[second] = value;
    return { rule, query: valid.query, body, path };
  };

const COORDINATES = ['/address/latitude', '/address/longitude'];
const notInEnum = fc
  .oneof(
    fc.string({ maxLength: 4 }),
    fc.constantFrom(...BRAZILIAN_STATES).map((state) => state.toLowerCase()),
    fc.constantFrom('São Paulo', 'XX', 'S P', 'SP '),
  )
  .filter((value) => !(BRAZILIAN_STATES as string[]).includes(value));
const unknownName = (known: readonly string[]) =>
  fc.stringMatching(/^[a-z][A-Za-z_]{0,15}$/).filter((name) => !known.includes(name) && !(name in {}));

const mutations: Record<string, Mutation> = {
  'wrong pattern: phone': fc
    .oneof(
      e164.map((phone) => phone.slice(1)),
      digits(1, 14).map((d) => `+0${d}`),
      fc.constantFrom('+55 11 98765-4321', '(11) 98765-4321', '+55119876543210000', '+'),
    )
    .map((bad) => inBody('wrong pattern: phone', '/phoneNumber', bad)),
  'wrong pattern: CEP': fc
    .oneof(digits(1, 7), digits(9, 12), fc.constantFrom('01310-100', 'abcdefgh', '0131010 '))
    .map((bad) => inBody('wrong pattern: CEP', '/address/postalCode', bad)),
  'wrong pattern: coordinate': fc
    .tuple(
      fc.constantFrom(...COORDINATES),
      fc.constantFrom('23S', '1,5', '--1', '+1', '1.', '.5', '1e5', '1'.repeat(13), '1.1234567890123', ' 1'),
    )
    .map(([path, bad]) => inBody('wrong pattern: coordinate', path, bad)),
  'not in the enum: UF': notInEnum.map((bad) => inBody('not in the enum: UF', '/address/state', bad)),
  'wrong format: e-mail': fc
    .constantFrom(
      'maria',
      'maria@',
      '@email.com.br',
      'maria silva@email.com',
      'joão@email.com.br',
      'a@@b.com',
      'a@b',
      'a..b@c.com',
      '.a@c.com',
      'a@-b.com',
      'a@b..com',
    )
    .map((bad) => inBody('wrong format: e-mail', '/email', bad)),
  'wrong type': fc
    .constantFrom<[string, unknown]>(
      ['/isPoliticallyExposedPerson', 'true'],
      ['/isPoliticallyExposedPerson', 1],
      ['/isPoliticallyExposedPerson', null],
      ['/phoneNumber', 5511987654321],
      ['/socialName', 42],
      ['/email', ['maria@email.com.br']],
      ['/address', 'Avenida Paulista, 1578'],
      ['/address', []],
      ['/address', null],
      ['/address/state', 35],
      ['/address/postalCode', 1310100],
      ['/address/number', 1578],
    )
    .map(([path, bad]) => inBody('wrong type', path, bad)),
  'too long': fc
    .tuple(fc.constantFrom(...FREE_TEXT_FIELDS, '/email'), fc.integer({ min: 1, max: 40 }))
    .chain(([path, extra]) => {
      const length = stringSchemaAt(path).maxLength + extra;
      // A long e-mail that is still an e-mail, so length is the only rule broken.
      const domain = '@email.com.br';
      const value =
        path === '/email'
          ? fc.constant(`${'a'.repeat(length - domain.length)}${domain}`)
          : textOfLength(length, length);
      return value.map((bad) => inBody('too long', path, bad));
    }),
  'too short': fc
    .constantFrom(
      ...STRING_FIELDS.filter((path) => (stringSchemaAt(path).minLength ?? 0) > 0 && FREE_TEXT_FIELDS.includes(path)),
    )
    .map((path) => inBody('too short', path, '')),
  'unknown property': fc.oneof(
    unknownName(BODY_PROPERTIES).map((name) => inBody('unknown property', `/${name}`, 'x')),
    unknownName(ADDRESS_PROPERTIES).map((name) => inBody('unknown property', `/address/${name}`, 'x')),
  ),
  'missing required address part': fc.constantFrom(...REQUIRED_ADDRESS_FIELDS).map((name) => (valid: Valid): Case => {
    const { [name]: _dropped, ...address } = valid.body.address;
    return {
      rule: 'missing required address part',
      query: valid.query,
      body: { ...valid.body, address },
      path: `/address/${name}`,
    };
  }),
  'empty body': fc.constant((valid: Valid): Case => ({ rule: 'empty body', query: valid.query, body: {}, path: '' })),
  'missing query parameter': fc.constantFrom('Account', 'DocumentNumber').map((name) => (valid: Valid): Case => {
    const { [name]: _dropped, ...query } = valid.query;
    return { rule: 'missing query parameter', query, body: valid.body, path: name };
  }),
  'wrong pattern: Account': fc
    .oneof(digits(21, 30), fc.constantFrom('12a', ' 1', '-1', '1.0', '١٢٣', '300541976902 '))
    .map(
      (bad) =>
        (valid: Valid): Case => ({
          rule: 'wrong pattern: Account',
          query: { ...valid.query, Account: bad },
          body: valid.body,
          path: 'Account',
        }),
    ),
  'wrong pattern: DocumentNumber': fc
    .oneof(digits(1, 10), digits(12, 14), fc.constantFrom('529.982.247-25', '5299822472X', 'abcdefghijk'))
    .map(
      (bad) =>
        (valid: Valid): Case => ({
          rule: 'wrong pattern: DocumentNumber',
          query: { ...valid.query, DocumentNumber: bad },
          body: valid.body,
          path: 'DocumentNumber',
        }),
    ),
};

const brokenRequest = fc
  .record({
    body: fullNaturalPersonUpdate,
    DocumentNumber: cpf,
    Account: account,
    mutate: fc.oneof(...Object.values(mutations)),
  })
  .map(({ body, DocumentNumber, Account, mutate }) => mutate({ query: { Account, DocumentNumber }, body }));

/**
 * In the quick run, enough broken requests that the fixed seed meets every kind of mutation at least
 * once (the full run meets each at least five times).
 */
const BROKEN_QUICK_RUNS = 60;

/**
 * The properties, at `depth` (./depth.ts), against the Prism mock at `mockUrl()` (static mode, the
 * bundled spec): npm test's shared one (agreement.test.ts), or one of the matrix file's own.
 */
export function agreementProperties(depth: Depth, mockUrl: () => string): void {
  const runs = { seed: SEED, numRuns: runsAt(depth, 200) };
  const exercised = new Map<string, number>();

  describe('validators and mock agree on valid requests', () => {
    test.prop([naturalPersonUpdate, cpf, account], runs)(
      'every valid update passes pre-flight and gets a 2xx from the mock',
      async (body, documentNumber, acct) => {
        expect(validateUpdateNaturalPersonQuery({ Account: acct, DocumentNumber: documentNumber })).toEqual([]);
        expect(validateNaturalPersonUpdate(body)).toEqual([]);
        const { client, seen } = recordingClient(mockUrl());
        const result = await client
          .updateNaturalPerson({ account: acct, documentNumber, body })
          .catch((error: unknown) => error);
        expect(
          seen.map((s) => s.violations),
          'what Prism rejected',
        ).toEqual([[]]);
        expect(seen[0]!.status).toBeGreaterThanOrEqual(200);
        expect(seen[0]!.status).toBeLessThan(300);
        expect(result).toEqual(exampleValue('UpdateSucceeded'));
      },
    );

    test.prop([listQuery], runs)(
      'every valid list query passes pre-flight and gets a page from the mock',
      async (query) => {
        expect(validateListPixKeysQuery(query)).toEqual([]);
        const { client, seen } = recordingClient(mockUrl());
        const page = await client.listPixKeys(query);
        expect(seen.map((s) => [s.status, s.violations])).toEqual([[200, []]]);
        expect(Array.isArray(page.data)).toBe(true);
      },
    );
  });

  describe('validators and mock agree on requests that break one rule', () => {
    test.prop([brokenRequest], { seed: SEED, numRuns: runsAt(depth, 300, BROKEN_QUICK_RUNS) })(
      'both reject it, naming the same field',
      async ({ rule, query, body, path }) => {
        exercised.set(rule, (exercised.get(rule) ?? 0) + 1);
        const issues = [...validateUpdateNaturalPersonQuery(query), ...validateNaturalPersonUpdate(body)];
        expect(comparablePaths(issues.map((i) => i.path)), `validator on ${rule}`).toEqual(comparablePaths([path]));
        const response = await putToMock(mockUrl(), query, body);
        expect(response.status, `mock on ${rule}`).toBe(422);
        expect(comparablePaths(prismPaths(response)), `mock on ${rule}`).toEqual(comparablePaths([path]));
      },
    );

    it('tried every kind of mutation', (context) => {
      // Only meaningful after the property above ran (not when this test is picked alone with -t).
      if (exercised.size === 0) context.skip();
      for (const rule of Object.keys(mutations))
        expect(exercised.get(rule) ?? 0, rule).toBeGreaterThanOrEqual(depth === 'full' ? 5 : 1);
    });

    const badLimit = fc.oneof(
      fc.integer({ max: LIMIT_RANGE.min - 1 }),
      fc.integer({ min: LIMIT_RANGE.max + 1 }),
      fc.double({ min: LIMIT_RANGE.min, max: LIMIT_RANGE.max, noNaN: true }).filter((n) => !Number.isInteger(n)),
    );
    test.prop([badLimit], runs)('an out-of-range or fractional limit: both reject it', async (limit) => {
      expect(validateListPixKeysQuery({ limit }).map((i) => i.path)).toEqual(['limit']);
      const response = await listFromMock(mockUrl(), { limit });
      expect(response.status).toBe(422);
      expect(comparablePaths(prismPaths(response))).toEqual(['limit']);
    });

    const badCursor = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9]+$/).map((s) => s.padEnd(CURSOR_MAX_LENGTH + 1, 'a')),
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9]{0,8}$/), fc.constantFrom(' ', '/', '+', '%', 'ç', '?', '&', '#'))
        .map(([s, c]) => `${s}${c}${s}`),
    );
    test.prop([badCursor], runs)('a cursor of the wrong shape: both reject it', async (cursor) => {
      expect(validateListPixKeysQuery({ cursor }).map((i) => i.path)).toContain('cursor');
      expect(comparablePaths(validateListPixKeysQuery({ cursor }).map((i) => i.path))).toEqual(['cursor']);
      const response = await listFromMock(mockUrl(), { cursor });
      expect(response.status).toBe(422);
      expect(comparablePaths(prismPaths(response))).toEqual(['cursor']);
    });

    test.prop([brokenRequest], { seed: SEED, numRuns: runsAt(depth, 50) })(
      'the client with pre-flight off gets the mock’s 422 as a BaasApiError',
      async ({ query, body }) => {
        // Same readers through the client: nothing is checked before sending, so the mock decides. The
        // client still sends identifiers as people write them in the contract's form, with pre-flight off
        // too (issue 35, src/validation/identifiers.ts): a case broken only by such a spelling
        // (`529.982.247-25`) is repaired, sent canonical, and the mock takes it.
        const repaired =
          preflightUpdate({ Account: query.Account, DocumentNumber: query.DocumentNumber }, body).issues.length === 0;
        const client = createBaasClient({ baseUrl: mockUrl(), token: TEST_TOKEN, retry: false, validate: false });
        const outcome = await client
          .updateNaturalPerson({
            account: query.Account as string,
            documentNumber: query.DocumentNumber as string,
            body: body as NaturalPersonUpdate,
          })
          .catch((e: unknown) => e);
        if (repaired) {
          expect(outcome).not.toBeInstanceOf(Error);
          return;
        }
        expect(outcome).toBeInstanceOf(BaasApiError);
        expect((outcome as BaasApiError).status).toBe(422);
      },
    );
  });

  describe('known differences: rules only the validators enforce', () => {
    test.prop([cpf], runs)('the generator’s CPFs are what isValidCpf accepts', (value) => {
      expect(isValidCpf(value)).toBe(true);
    });

    test.prop([fullNaturalPersonUpdate, fc.oneof(cpfWithWrongCheckDigit, repeatedDigitCpf), account], runs)(
      'a CPF with a wrong check digit or one repeated digit: the validator rejects it, the mock answers 2xx',
      async (body, documentNumber, acct) => {
        expect(isValidCpf(documentNumber)).toBe(false);
        const query = { Account: acct, DocumentNumber: documentNumber };
        expect(validateUpdateNaturalPersonQuery(query).map((i) => i.path)).toEqual(['DocumentNumber']);
        expect(validateNaturalPersonUpdate(body)).toEqual([]);
        // JSON Schema has no check-digit rule, so Prism accepts anything of the right shape.
        const response = await putToMock(mockUrl(), query, body);
        expect(response.status).toBe(200);
        expect(prismPaths(response)).toEqual([]);
      },
    );

    it('Prism reads query parameter names case-insensitively: `account=` satisfies the required `Account`', async () => {
      const query = { account: '300541976902', DocumentNumber: '52998224725' };
      expect(validateUpdateNaturalPersonQuery(query).map((i) => i.path)).toContain('Account');
      expect((await putToMock(mockUrl(), query, { socialName: 'Maria' })).status).toBe(200);
    });

    it('Prism takes an empty `cursor=` as no cursor; the contract (minLength 1) does not', async () => {
      expect(validateListPixKeysQuery({ cursor: '' }).map((i) => i.path)).toContain('cursor');
      expect((await listFromMock(mockUrl(), { cursor: '' })).status).toBe(200);
    });
  });
}
