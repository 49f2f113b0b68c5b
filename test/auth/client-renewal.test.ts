// The client with clientCredentials against a real OAuth2 server (oauth2-mock-server) and a local
// API server: a 401 drops the cached token, a new one is fetched and the call repeated once; a second
// 401 is a BaasApiError; token failures are AuthErrors whose cause is the BaasTokenError.
import { inspect } from 'node:util';
import type { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BaasApiError,
  BaasAuthError,
  clientCredentials,
  createBaasClient,
  type ClientCredentialsTokenSource,
} from '../../src/index.js';
import { BaasTokenError } from '../../src/auth/token-error.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { startOAuthServer } from '../support/oauth-server.js';

const CLIENT_SECRET = 'cl13nt-s3cr3t-value-xyz';
let oauth: OAuth2Server;
let api: FaultServer;
let tokenUrl: string;
let tokenRequests: number;

beforeAll(async () => {
  ({ oauth, tokenUrl } = await startOAuthServer());
  oauth.service.on('beforeResponse', () => (tokenRequests += 1));
  api = await startFaultServer();
});
afterAll(async () => {
  await oauth?.stop();
  await api?.close();
});
beforeEach(() => {
  tokenRequests = 0;
  api.requests.length = 0;
});

const page = { data: [], cursor: { next: null } };
const source = (): ClientCredentialsTokenSource =>
  clientCredentials({ tokenUrl, clientId: 'acme', clientSecret: CLIENT_SECRET });
const bearer = (i: number) => String(api.requests[i]?.headers.authorization).replace(/^Bearer /, '');

describe('a 401 with a clientCredentials token', () => {
  it('drops the token, fetches a new one and repeats the call once', async () => {
    const refused = new Set<string>();
    api.handle((req, res) => {
      const token = String(req.headers.authorization);
      if (refused.size === 0) {
        refused.add(token);
        return json(res, 401, { type: 'about:blank', status: 401, title: 'Unauthorized' }, { 'x-request-id': 'r-401' });
      }
      return json(res, 200, page, { 'x-request-id': 'r-200' });
    });
    const client = createBaasClient({ baseUrl: api.url, token: source(), retry: false });
    const retries: unknown[] = [];
    client.on('retry', (e) => retries.push(e));
    await expect(client.listPixKeys({ limit: 1 })).resolves.toEqual(page);
    expect(api.requests).toHaveLength(2);
    expect(tokenRequests).toBe(2);
    expect(bearer(1)).not.toBe(bearer(0));
    expect(retries).toEqual([
      expect.objectContaining({ type: 'retry', reason: 'token refused (401)', waitMs: 0, status: 401, attempt: 1 }),
    ]);
  });

  it('a second 401 is a BaasApiError, after exactly two sends and two token requests', async () => {
    api.handle((_req, res) =>
      json(res, 401, { type: 'about:blank', status: 401, title: 'Unauthorized' }, { 'x-request-id': 'r-again' }),
    );
    const client = createBaasClient({ baseUrl: api.url, token: source() });
    const error = await client.listPixKeys().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasApiError);
    expect(error).toMatchObject({ status: 401, attempts: 2, requestId: 'r-again' });
    expect(api.requests).toHaveLength(2);
    expect(tokenRequests).toBe(2);
  });

  it('a token function without invalidate, or a fixed token, is not repeated', async () => {
    api.handle((_req, res) => json(res, 401, { type: 'about:blank', status: 401 }));
    for (const token of ['fixed-token-123456', async () => 'function-token-123456']) {
      api.requests.length = 0;
      const error = await createBaasClient({ baseUrl: api.url, token })
        .listPixKeys()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'api', status: 401, attempts: 1 });
      expect(api.requests).toHaveLength(1);
    }
  });
});

describe('token failures through the client', () => {
  it('are AuthErrors whose cause is the BaasTokenError with the RFC 6749 code, the secret nowhere; nothing is sent', async () => {
    oauth.service.once('beforeResponse', (response) => {
      response.statusCode = 401;
      response.body = { error: 'invalid_client', error_description: `no client with secret ${CLIENT_SECRET}` };
    });
    api.handle((_req, res) => json(res, 200, page));
    const client = createBaasClient({ baseUrl: api.url, token: source() });
    const error = (await client.listPixKeys().catch((e: unknown) => e)) as BaasAuthError;
    expect(error).toBeInstanceOf(BaasAuthError);
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/invalid_client/);
    expect(error.cause).toBeInstanceOf(BaasTokenError);
    expect(error.cause).toBeInstanceOf(BaasAuthError);
    expect(error.cause).toMatchObject({ kind: 'auth', failure: 'rejected', error: 'invalid_client', status: 401 });
    expect(api.requests).toHaveLength(0);
    for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 10 }), String(error.cause)])
      expect(text).not.toContain(CLIENT_SECRET);
  });
});
