// createBaasClient, the rest of its surface with an injected fetch: pixKeys across pages and its
// repeated-cursor error, the URL of an operation with path parameters, the token source's own
// secrets, the exact headers of a GET, pre-flight naming the operation, and `validateResponses`.
import { describe, expect, it } from 'vitest';
import { operationUrl } from '../../src/client/baas-client.js';
import type { FetchLike } from '../../src/fetch.js';
import type { Operation } from '../../src/generated/operations.js';
import {
  type BaasApiError,
  BaasResponseError,
  BaasValidationError,
  createBaasClient,
  type BaasClientOptions,
} from '../../src/index.js';
import { SECRET_TOKEN, VALID_ACCOUNT, firstPageKeys } from '../support/fixtures.js';

const BASE = 'https://api.example.test';
const LIST = `${BASE}/v2/api/pix/keys/list-keys`;

function recording(answer: (url: string) => Response) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, headers: { ...(init.headers as Record<string, string>) } });
    return answer(url);
  };
  return { fetch, calls };
}

const client = (fetch: FetchLike, options: Partial<BaasClientOptions> = {}) =>
  createBaasClient({ baseUrl: BASE, token: SECRET_TOKEN, retry: false, fetch, ...options });

describe('pixKeys', () => {
  it('walks the pages until cursor.next is null', async () => {
    const keys = firstPageKeys();
    const server = recording((url) => {
      const cursor = new URL(url).searchParams.get('cursor');
      return Response.json({ cursor: { next: cursor === null ? 'p2' : null }, data: keys });
    });
    const seen = [];
    for await (const key of client(server.fetch).pixKeys({ limit: 2 })) seen.push(key);
    expect(seen).toEqual([...keys, ...keys]);
    expect(server.calls.map((c) => c.url)).toEqual([`${LIST}?limit=2`, `${LIST}?limit=2&cursor=p2`]);
  });

  it('a repeated cursor is a BaasResponseError of listPixKeys naming the rule, not the cursor', async () => {
    const server = recording(() => Response.json({ cursor: { next: 'same-cursor' }, data: [] }));
    let error: unknown;
    try {
      for await (const key of client(server.fetch).pixKeys()) void key;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BaasResponseError);
    const { message, status, problems, operation } = error as BaasResponseError;
    expect({ message, status, problems, operation }).toEqual({
      message:
        'listPixKeys: page 2 broke a rule of the page walk: cursor.next must not repeat an earlier cursor; stopped to avoid an endless loop (HTTP 200)',
      status: 200,
      problems: [{ part: 'body', pointer: '/cursor/next', rule: 'must not repeat an earlier cursor' }],
      operation: 'listPixKeys',
    });
  });
});

describe('the URL of an operation', () => {
  // No operation of the contract has path parameters yet; one that has (GET /v2/api/pix/keys/{key_id}) fills them in, encoded.
  const byId = {
    method: 'GET',
    path: '/v2/api/pix/keys/{key_id}/{part}',
    query: [{ name: 'expand', required: false }],
    header: [],
    pathParams: ['key_id', 'part'],
    body: undefined,
  } as unknown as Operation;

  it('path parameters are filled in, encoded; a missing one is empty', () => {
    expect(operationUrl(BASE, byId, { path: { key_id: 'a/b c', part: 'x' }, query: { expand: 'y' } })).toBe(
      `${BASE}/v2/api/pix/keys/a%2Fb%20c/x?expand=y`,
    );
    expect(operationUrl(BASE, byId, { path: { part: 'x' } })).toBe(`${BASE}/v2/api/pix/keys//x`);
    expect(operationUrl(BASE, byId, {})).toBe(`${BASE}/v2/api/pix/keys//`);
  });

  it('braces in a path without path parameters stay', () => {
    const literal = { ...byId, path: '/v2/{literal}', pathParams: [] } as unknown as Operation;
    expect(operationUrl(BASE, literal, { path: { literal: 'x' } })).toBe(`${BASE}/v2/{literal}`);
  });
});

describe('what the client masks and sends', () => {
  it("a token source's own secrets are masked in errors, and stay masked however many tokens come", async () => {
    const secret = 'client-secret-7h9k2m4p';
    let n = 0;
    const source = Object.assign(async () => `token-number-${++n}`, { secrets: () => [secret] });
    const server = recording(() =>
      Response.json({ title: 'Refused', status: 403, detail: `bad secret ${secret}` }, { status: 403 }),
    );
    const baas = client(server.fetch, { token: source });
    for (let call = 0; call < 6; call += 1) {
      const error = (await baas.listPixKeys().catch((e: unknown) => e)) as BaasApiError;
      expect(error.problem?.detail).toBe('bad secret [REDACTED]');
    }
  });

  it('a GET carries exactly Accept, User-Agent and Authorization', async () => {
    const server = recording(() => Response.json({ cursor: { next: null }, data: [] }));
    await client(server.fetch, { userAgent: 'my-app/1' }).listPixKeys();
    expect(Object.keys(server.calls[0]!.headers).sort()).toEqual(['Accept', 'Authorization', 'User-Agent']);
  });

  it('pre-flight of an update names the operation', async () => {
    const server = recording(() => Response.json({}));
    const error = await client(server.fetch)
      .updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: '123', body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasValidationError);
    expect((error as BaasValidationError).operation).toBe('updateNaturalPerson');
    expect(server.calls).toEqual([]);
  });

  it("validateResponses: 'throw' turns an answer that left the contract into a BaasResponseError", async () => {
    const server = recording(() => Response.json({ cursor: { next: null }, data: [{ unexpected: true }] }));
    const error = await client(server.fetch, { validateResponses: 'throw' })
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).message).toMatch(/^listPixKeys: the answer drifted from the contract: /);
  });
});
