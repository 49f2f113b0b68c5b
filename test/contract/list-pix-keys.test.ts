// GET /v2/api/pix/keys/list-keys against the mock.
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, TEST_USER_AGENT, mockClient, mockUrl, violatedFields } from '../support/mock.js';

const USER_AGENT = { 'User-Agent': TEST_USER_AGENT };
import { preferHeaders } from '../../src/testing/prefer.js';

const PATH = '/v2/api/pix/keys/list-keys';

describe('listPixKeys', () => {
  it('returns a page of key records with their beneficiary account and entity', async () => {
    const { data, response } = await mockClient().GET(PATH, {
      params: { query: { limit: 2 }, header: USER_AGENT },
      headers: preferHeaders({ example: 'FirstPage' }),
    });
    expect(response.status).toBe(200);
    expect(data?.cursor.next).toEqual(expect.any(String));
    expect(data?.data).toHaveLength(2);
    for (const key of data?.data ?? []) {
      expect(key.beneficiary_account.account_type).toBe('CC');
      expect(key.beneficiary_entity.document).toMatch(/^[0-9]{11}$/);
    }
    expect(data?.data.map((k) => k.key_type)).toEqual(['phone', 'email']);
  });

  it('serves the last page with a null cursor', async () => {
    const { data } = await mockClient().GET(PATH, {
      params: { query: { cursor: 'eyJvZmZzZXQiOjJ9' }, header: USER_AGENT },
      headers: preferHeaders({ example: 'LastPage' }),
    });
    expect(data?.cursor.next).toBeNull();
  });

  it.each([
    ['limit above 200', '?limit=201', 'query.limit'],
    ['limit of 0', '?limit=0', 'query.limit'],
    ['cursor with spaces', '?cursor=a%20b', 'query.cursor'],
  ])('rejects %s with 422', async (_rule, search, field) => {
    const response = await fetch(`${mockUrl()}${PATH}${search}`, {
      headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'User-Agent': 'tests/1' },
    });
    expect(response.status).toBe(422);
    expect(violatedFields(response)).toContain(field);
  });

  it('rejects a request without User-Agent', async () => {
    // undici always adds its own User-Agent, so an empty header is the only way to send none.
    const response = await fetch(mockUrl() + PATH, {
      headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'User-Agent': '' },
    });
    expect(response.status).toBe(422);
    expect(violatedFields(response)).toContain('header.user-agent');
  });

  it.each([
    ['a tab', 'acme\tpay/1'],
    ['UTF-8 bytes', Buffer.from('café/1.0').toString('latin1')],
  ])('rejects a User-Agent with %s with 422, as the sandbox does', async (_what, agent) => {
    const response = await fetch(mockUrl() + PATH, {
      headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'User-Agent': agent },
    });
    expect(response.status).toBe(422);
    expect(violatedFields(response)).toContain('header.user-agent');
  });

  it('answers 401 without a bearer token', async () => {
    // The package's client always sends its token: a plain fetch sends none.
    const response = await fetch(mockUrl() + PATH, { headers: USER_AGENT });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { title?: string }).title).toBe('Unauthorized');
  });
});
