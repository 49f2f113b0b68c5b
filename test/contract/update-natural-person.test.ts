// PUT /v2/api/baas-onboarding/account/natural-person against the mock: each rule broken on its own.
// Prism reports query parameter names in lower case.
import { describe, expect, it } from 'vitest';
import { mockClient, mockUrl, violatedFields } from '../support/mock.js';
import type { NaturalPersonUpdate } from '../../src/types.js';

const PATH = '/v2/api/baas-onboarding/account/natural-person';
const VALID_QUERY = { Account: '300541976902', DocumentNumber: '52998224725' };
const VALID_BODY: NaturalPersonUpdate = {
  phoneNumber: '+5511987654321',
  email: 'maria.silva@email.com.br',
  socialName: 'Maria Silva',
  isPoliticallyExposedPerson: false,
  address: {
    postalCode: '01310100',
    street: 'Avenida Paulista',
    number: '1578',
    addressComplement: 'Apto 42',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    longitude: '-46.6558819',
    latitude: '-23.5613991',
  },
};

/** Sends raw JSON so that shapes the types forbid can still reach the mock. */
async function put(
  body: unknown,
  query: Record<string, string> = VALID_QUERY,
  token = 'test-token',
): Promise<Response> {
  const url = new URL(mockUrl() + PATH);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return fetch(url, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

const withAddress = (patch: Record<string, unknown>) => ({
  ...VALID_BODY,
  address: { ...VALID_BODY.address, ...patch },
});

describe('updateNaturalPerson', () => {
  it('accepts a valid update through the typed client', async () => {
    const { data, response } = await mockClient().PUT(PATH, { params: { query: VALID_QUERY }, body: VALID_BODY });
    expect(response.status).toBe(200);
    expect(data?.status).toBe('SUCCESS');
  });

  it.each([
    ['bad phone', { ...VALID_BODY, phoneNumber: '11987654321' }, 'body.phoneNumber'],
    ['phone over 15 digits', { ...VALID_BODY, phoneNumber: '+5511987654321000' }, 'body.phoneNumber'],
    ['bad e-mail', { ...VALID_BODY, email: 'maria.silva-at-email' }, 'body.email'],
    ['unknown UF', withAddress({ state: 'XX' }), 'body.address.state'],
    ['lower-case UF', withAddress({ state: 'sp' }), 'body.address.state'],
    ['7-digit CEP', withAddress({ postalCode: '0131010' }), 'body.address.postalCode'],
    ['CEP with hyphen', withAddress({ postalCode: '01310-100' }), 'body.address.postalCode'],
    ['coordinate that is not numeric', withAddress({ latitude: '23,56S' }), 'body.address.latitude'],
    ['address without city', { address: { ...VALID_BODY.address, city: undefined } }, 'body.address.city'],
    ['social name over 120 characters', { socialName: 'M'.repeat(121) }, 'body.socialName'],
    ['PEP flag as text', { isPoliticallyExposedPerson: 'false' }, 'body.isPoliticallyExposedPerson'],
    ['unknown property', { ...VALID_BODY, fullName: 'Maria' }, 'body'],
    ['unknown address property', withAddress({ country: 'BR' }), 'body.address'],
    ['empty body', {}, 'body'],
  ])('rejects %s with 422 naming the field', async (_rule, body, field) => {
    const response = await put(body);
    expect(response.status).toBe(422);
    expect(violatedFields(response)).toContain(field);
  });

  it.each([
    ['missing DocumentNumber', { Account: VALID_QUERY.Account }, 'query.documentnumber'],
    ['10-digit DocumentNumber', { ...VALID_QUERY, DocumentNumber: '5299822472' }, 'query.documentnumber'],
    ['formatted DocumentNumber', { ...VALID_QUERY, DocumentNumber: '529.982.247-25' }, 'query.documentnumber'],
    ['missing Account', { DocumentNumber: VALID_QUERY.DocumentNumber }, 'query.account'],
    ['Account with letters', { ...VALID_QUERY, Account: '30054A' }, 'query.account'],
    ['Account over 20 digits', { ...VALID_QUERY, Account: '1'.repeat(21) }, 'query.account'],
  ])('rejects %s with 422 naming the parameter', async (_rule, query, field) => {
    const response = await put(VALID_BODY, query);
    expect(response.status).toBe(422);
    expect(violatedFields(response)).toContain(field);
  });

  it('answers 401 without a bearer token', async () => {
    const response = await put(VALID_BODY, VALID_QUERY, '');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});
