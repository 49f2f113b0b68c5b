// createBaasClient against the Prism mock: every public method, and every documented error.
import { describe, expect, it } from 'vitest';
import { BaasApiError, createBaasClient } from '../../src/index.js';
import { preferHeaders } from '../../src/testing/prefer.js';
import { mockUrl } from '../support/mock.js';
import { spec } from '../support/spec.js';
import { VALID_ACCOUNT, VALID_CPF, fullUpdate } from '../support/fixtures.js';

// Prism picks the status from Prefer, sent as a per-call header.
const preferring = (status: number) => {
  const client = createBaasClient({ baseUrl: mockUrl(), token: 'test-token-123456', retry: false });
  const headers = { Prefer: `code=${status}` };
  return {
    updateNaturalPerson: (input: Parameters<typeof client.updateNaturalPerson>[0]) =>
      client.updateNaturalPerson({ ...input, headers }),
    listPixKeys: (input: Parameters<typeof client.listPixKeys>[0] = {}) => client.listPixKeys({ ...input, headers }),
  };
};

const client = () =>
  createBaasClient({ baseUrl: mockUrl(), token: 'test-token-123456', userAgent: 'client-tests/1.0', retry: false });

describe('createBaasClient against the mock', () => {
  it('updateNaturalPerson resolves with the success body', async () => {
    await expect(
      client().updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate() }),
    ).resolves.toEqual({
      version: '1.0.0',
      status: 'SUCCESS',
    });
  });

  it('listPixKeys resolves with one page (by default the CompletePage example, next null)', async () => {
    const page = await client().listPixKeys({ limit: 5 });
    expect(page.cursor.next).toBeNull();
    expect(page.data.map((k) => k.key_type)).toEqual(['phone', 'email', 'evp']);
  });

  it('pixKeys walks the default mock to the end (issue 10: the default page used to repeat its cursor forever)', async () => {
    const keys = [];
    for await (const key of client().pixKeys()) keys.push(key.id);
    expect(keys).toHaveLength(3);
  });

  it('pixKeys iterates with maxPages', async () => {
    // FirstPage answers every cursor with the same page and its cursor, so maxPages bounds the walk.
    const firstPage = createBaasClient({
      baseUrl: mockUrl(),
      token: 'test-token-123456',
      retry: false,
      fetch: (url, init) => {
        const headers = new Headers(init.headers);
        headers.set('Prefer', 'example=FirstPage');
        return fetch(url, { ...init, headers });
      },
    });
    const keys = [];
    for await (const key of firstPage.pixKeys({ limit: 2, maxPages: 1 })) keys.push(key);
    expect(keys).toHaveLength(2);
  });

  it('raw shares auth and User-Agent', async () => {
    const { data, response } = await client().raw.GET('/v2/api/pix/keys/list-keys', {
      params: { header: { 'User-Agent': 'client-tests/1.0' } },
      headers: preferHeaders({ example: 'NoKeys' }),
    });
    expect(response.status).toBe(200);
    expect(data?.data).toEqual([]);
  });

  const statuses = (path: string, method: string) =>
    Object.keys(spec.paths[path]![method].responses)
      .map(Number)
      .filter((s) => s >= 400);

  it.each(statuses('/v2/api/baas-onboarding/account/natural-person', 'put'))(
    'update %i becomes BaasApiError with the problem',
    async (status) => {
      const error = await preferring(status)
        .updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: { socialName: 'Maria' } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BaasApiError);
      const apiError = error as BaasApiError;
      expect(apiError.kind).toBe('api');
      expect(apiError.status).toBe(status);
      expect(apiError.problem?.status).toBe(status);
      expect(apiError.problem?.title).toEqual(expect.any(String));
      expect(apiError.requestId).toBe('7d9c6f2e-1b3a-4e5d-8c7f-0a1b2c3d4e5f');
      expect(apiError.operation).toBe('updateNaturalPerson');
      expect(apiError.url).toContain('DocumentNumber=*********25');
      if (status === 429 || status === 503) expect(apiError.retryAfterMs).toBe(30_000);
    },
  );

  it.each(statuses('/v2/api/pix/keys/list-keys', 'get'))(
    'list %i becomes BaasApiError with the problem',
    async (status) => {
      const error = (await preferring(status)
        .listPixKeys()
        .catch((e: unknown) => e)) as BaasApiError;
      expect(error).toBeInstanceOf(BaasApiError);
      expect(error.status).toBe(status);
      expect(error.problem?.status).toBe(status);
    },
  );
});
