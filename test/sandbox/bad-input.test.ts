// Bad input: a clear problem answer each time, and the state afterwards equals the state before.
import { describe, expect, it } from 'vitest';
import { createBaasClient, BaasApiError } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';

const sandbox = createSandbox({ seed: 'bad-input', keysPerAccount: 12 });
const token = sandbox.clients[0]!.token;
const target = sandbox.clients[0]!.accounts[0]!;
const UPDATE = `http://s/v2/api/baas-onboarding/account/natural-person?Account=${target.account}&DocumentNumber=${target.documentNumber}`;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const CASES: [string, () => Request, number, RegExp][] = [
  [
    'a body that is not JSON',
    () => new Request(UPDATE, { method: 'PUT', headers, body: '{"email": ' }),
    400,
    /not valid JSON/,
  ],
  [
    'a huge body',
    () => new Request(UPDATE, { method: 'PUT', headers, body: JSON.stringify({ socialName: 'x'.repeat(200_000) }) }),
    413,
    /larger than/,
  ],
  [
    'a huge body without Content-Length',
    () =>
      new Request(UPDATE, {
        method: 'PUT',
        headers,
        body: new Blob(['{"socialName":"', 'y'.repeat(300_000), '"}']).stream(),
        duplex: 'half',
      } as RequestInit),
    413,
    /larger than/,
  ],
  [
    'the wrong content type',
    () =>
      new Request(UPDATE, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'text/plain' },
        body: '{"email":"a@b.com"}',
      }),
    400,
    /application\/json/,
  ],
  [
    'invalid UTF-8',
    () => new Request(UPDATE, { method: 'PUT', headers, body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }),
    400,
    /UTF-8/,
  ],
  ['an unknown path', () => new Request('http://s/v2/api/pix/keys/delete-all', { headers }), 404, /path/],
  ['the wrong method', () => new Request(UPDATE, { method: 'DELETE', headers }), 405, /PUT only/],
  [
    'no token',
    () =>
      new Request(UPDATE, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"email":"a@b.com"}',
      }),
    401,
    /bearer token/,
  ],
  [
    'a malformed Authorization',
    () =>
      new Request(UPDATE, {
        method: 'PUT',
        headers: { ...headers, authorization: `Basic ${token}` },
        body: '{"email":"a@b.com"}',
      }),
    401,
    /bearer token/,
  ],
  [
    'a tampered cursor',
    () =>
      new Request('http://s/v2/api/pix/keys/list-keys?cursor=1.xxxxxxxxxxxxxxxxxxxxxx', {
        headers: { ...headers, 'user-agent': 't/1' },
      }),
    400,
    /cursor/,
  ],
  [
    'a cursor against the contract',
    () =>
      new Request('http://s/v2/api/pix/keys/list-keys?cursor=%00%01', { headers: { ...headers, 'user-agent': 't/1' } }),
    422,
    /cursor/,
  ],
  [
    'a repeated limit',
    () =>
      new Request('http://s/v2/api/pix/keys/list-keys?limit=2&limit=3', {
        headers: { ...headers, 'user-agent': 't/1' },
      }),
    422,
    /"property":"limit"/,
  ],
  [
    'a repeated Account',
    () => new Request(`${UPDATE}&Account=${target.account}`, { method: 'PUT', headers, body: '{"email":"a@b.com"}' }),
    422,
    /"property":"Account"/,
  ],
  [
    'no User-Agent on the list',
    () => new Request('http://s/v2/api/pix/keys/list-keys', { headers }),
    422,
    /User-Agent/,
  ],
];

describe('bad input', () => {
  it.each(CASES)('%s gets a problem answer and changes nothing', async (_name, request, status, detail) => {
    const before = JSON.stringify(sandbox.snapshot());
    const response = await sandbox.fetch(request());
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const body = (await response.json()) as { status: number; detail: string; violations?: { property: string }[] };
    expect(body.status).toBe(status);
    expect(`${body.detail} ${JSON.stringify(body.violations ?? [])}`).toMatch(detail);
    if (status === 405) expect(response.headers.get('allow')).toBe('PUT');
    if (status === 401) expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(JSON.stringify(sandbox.snapshot())).toBe(before);
  });

  it('never echoes a rejected value, and names each broken field with its rule', async () => {
    const response = await sandbox.fetch(
      new Request(UPDATE.replace(target.documentNumber, '52998224724'), {
        method: 'PUT',
        headers,
        body: JSON.stringify({ phoneNumber: '+55-secret-99', address: { state: 'ZZ' } }),
      }),
    );
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('52998224724');
    const properties = (JSON.parse(text) as { violations: { property: string }[] }).violations.map((v) => v.property);
    expect(new Set(properties)).toEqual(
      new Set([
        'DocumentNumber',
        '/phoneNumber',
        '/address/postalCode',
        '/address/street',
        '/address/number',
        '/address/neighborhood',
        '/address/city',
        '/address/state',
      ]),
    );
  });

  it('matches the bearer scheme case-insensitively (RFC 9110 §11.1)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const response = await sandbox.fetch(
        new Request('http://s/v2/api/pix/keys/list-keys?limit=1', {
          headers: { authorization: `${scheme} ${token}`, 'user-agent': 't/1' },
        }),
      );
      expect(response.status).toBe(200);
    }
  });

  it('a body over 64 KiB is a 413 that the client turns into a BaasApiError with its problem, like any documented error', async () => {
    const client = createBaasClient({
      baseUrl: 'https://sandbox.baas.example',
      token,
      fetch: sandbox.fetch,
      retry: false,
    });
    // The typed call never sends an oversized body (its fields are bounded); the raw client can.
    const { error, response } = await client.raw.PUT('/v2/api/baas-onboarding/account/natural-person', {
      params: { query: { Account: target.account, DocumentNumber: target.documentNumber } },
      body: { socialName: 'z'.repeat(70_000) },
    });
    expect(response.status).toBe(413);
    expect(error).toMatchObject({ status: 413, title: 'Content too large' });
    // The typed call, answered 413 (the documented example, served as a fault): a BaasApiError.
    sandbox.inject({ operation: 'updateNaturalPerson', status: 413 });
    const refused = await client
      .updateNaturalPerson({
        account: target.account,
        documentNumber: target.documentNumber,
        body: { email: 'a@b.com' },
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BaasApiError);
    expect([(refused as BaasApiError).status, (refused as BaasApiError).problem?.title]).toEqual([
      413,
      'Content too large',
    ]);
  });

  it("answers 403 for another client's customer and 404 for an unknown pair", async () => {
    const two = createSandbox({ seed: 'owners', clients: 2 });
    const other = two.clients[1]!.accounts[0]!;
    const baas = createBaasClient({
      baseUrl: 'https://sandbox.baas.example',
      token: two.clients[0]!.token,
      fetch: two.fetch,
      retry: false,
    });
    const forbidden = await baas
      .updateNaturalPerson({ account: other.account, documentNumber: other.documentNumber, body: { email: 'a@b.com' } })
      .catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(BaasApiError);
    expect((forbidden as BaasApiError).status).toBe(403);
    const missing = await baas
      .updateNaturalPerson({ account: '1', documentNumber: '52998224725', body: { email: 'a@b.com' } })
      .catch((e: unknown) => e);
    expect((missing as BaasApiError).status).toBe(404);
  });
});
