// The one request builder (src/validation/request.ts): method, URL and headers of an operation from
// the generated table, as the client and verify send them.
import { describe, expect, it } from 'vitest';
import { BaasValidationError } from '../../src/errors.js';
import { operations, type Operation } from '../../src/generated/operations.js';
import { Secrets } from '../../src/redact.js';
import { buildRequest, operationUrl } from '../../src/validation/request.js';

const BASE = 'https://api.example.test';
const UA = { 'User-Agent': 'acme/1' };
const secrets = Secrets.none;

describe('buildRequest', () => {
  it('takes method and path from the operation table, the query in the spec order', () => {
    const built = buildRequest('listPixKeys', {
      secrets,
      baseUrl: BASE,
      query: { cursor: 'c1', limit: 5 },
      headers: UA,
    });
    expect(built).toEqual({
      operation: 'listPixKeys',
      method: operations.listPixKeys.method,
      url: `${BASE}${operations.listPixKeys.path}?limit=5&cursor=c1`,
      headers: UA,
      body: undefined,
    });
  });

  it('keeps a gateway prefix (trailing slashes dropped) and leaves out undefined parameters', () => {
    const built = buildRequest('listPixKeys', {
      secrets,
      baseUrl: 'https://gw.example/baas//',
      query: { limit: undefined, cursor: 'a b' },
      headers: UA,
    });
    expect(built.url).toBe('https://gw.example/baas/v2/api/pix/keys/list-keys?cursor=a%20b');
    expect(buildRequest('listPixKeys', { secrets, baseUrl: 'https://gw.example', headers: UA }).url).toBe(
      'https://gw.example/v2/api/pix/keys/list-keys',
    );
  });

  it("encodes every character outside RFC 3986's unreserved set, as form expansion does", () => {
    const { url } = buildRequest('listPixKeys', {
      secrets,
      baseUrl: BASE,
      query: { cursor: "a+b/c=d&e!'()*~._-" },
      headers: UA,
    });
    expect(new URL(url).search).toBe('?cursor=a%2Bb%2Fc%3Dd%26e%21%27%28%29%2A~._-');
    expect(new URL(url).searchParams.get('cursor')).toBe("a+b/c=d&e!'()*~._-");
  });

  it('writes the body as JSON with the media type of the table; an operation without a body sends none', () => {
    const built = buildRequest('updateNaturalPerson', {
      secrets,
      baseUrl: BASE,
      query: { Account: '123', DocumentNumber: '52998224725' },
      headers: UA,
      body: { email: 'maria@example.com' },
    });
    expect(built.method).toBe('PUT');
    expect(built.headers['Content-Type']).toBe(operations.updateNaturalPerson.body);
    expect(built.body).toBe('{"email":"maria@example.com"}');
    expect(buildRequest('listPixKeys', { secrets, baseUrl: BASE, headers: UA, body: { x: 1 } }).body).toBeUndefined();
    // No body given: none sent, and no Content-Type for it.
    const bare = buildRequest('updateNaturalPerson', {
      secrets,
      baseUrl: BASE,
      query: { Account: '123', DocumentNumber: '52998224725' },
      headers: UA,
    });
    expect([bare.body, Object.keys(bare.headers)]).toEqual([undefined, ['User-Agent']]);
  });

  it("names the headers as the issue's path, the rule in its message", () => {
    try {
      buildRequest('listPixKeys', { secrets, baseUrl: BASE, headers: { ...UA, 'Bad Name': 'x' } });
      expect.unreachable('a header that is not valid HTTP was built');
    } catch (error) {
      expect((error as BaasValidationError).issues).toEqual([
        { path: 'headers', rule: expect.stringMatching(/HTTP/), message: expect.stringMatching(/HTTP/) },
      ]);
    }
  });

  it('refuses a header that is not valid HTTP, and a query parameter the operation has not', () => {
    for (const headers of [{ 'Bad Name': 'x' }, { 'X-Ok': 'line\nbreak' }, { 'X-Ok': 5 as unknown as string }])
      expect(() => buildRequest('listPixKeys', { secrets, baseUrl: BASE, headers: { ...UA, ...headers } })).toThrow(
        BaasValidationError,
      );
    expect(() =>
      buildRequest('listPixKeys', {
        secrets,
        baseUrl: BASE,
        headers: UA,
        query: { Limit: 5 } as unknown as { limit: number },
      }),
    ).toThrow(/no query parameter "Limit"/);
  });

  it("checks the header parameters the operation requires are given, whatever their letters' case", () => {
    expect(() => buildRequest('listPixKeys', { secrets, baseUrl: BASE })).toThrow(/requires the User-Agent header/);
    expect(buildRequest('listPixKeys', { secrets, baseUrl: BASE, headers: { 'user-agent': 'x/1' } }).headers).toEqual({
      'user-agent': 'x/1',
    });
  });

  it('sends an out-of-contract query only when asked, over the typed one', () => {
    const { url } = buildRequest('listPixKeys', {
      secrets,
      baseUrl: BASE,
      headers: UA,
      query: { limit: 10, cursor: 'c' },
      outOfContractQuery: { limit: '201', extra: 'x y' },
    });
    expect(new URL(url).search).toBe('?cursor=c&limit=201&extra=x%20y');
  });
});

describe('operationUrl with path parameters', () => {
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

  it('braces in a path without path parameters stay (as the URL writes them)', () => {
    const literal = { ...byId, path: '/v2/{literal}', pathParams: [] } as unknown as Operation;
    expect(operationUrl(BASE, literal, { path: { literal: 'x' } })).toBe(`${BASE}/v2/%7Bliteral%7D`);
  });
});
