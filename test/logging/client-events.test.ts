// The client's logger, logLevel and on(): one debug entry per attempt sent, per response, per retry
// (wait and why) and per error, each with operation, method, redacted URL, status, attempt, duration
// and request id (rate-limit fields on responses); and, for every event kind and every error kind,
// no token, client secret or full CPF in the message, toJSON, util.inspect or the logged object.
import { inspect } from 'node:util';
import type { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaasApiError,
  clientCredentials,
  createBaasClient,
  type BaasEvent,
  type BaasEventType,
  type Logger,
} from '../../src/index.js';
import { json, startFaultServer, type FaultServer } from '../support/fault-server.js';
import { fullUpdate, SECRET_TOKEN, VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';
import { startOAuthServer } from '../support/oauth-server.js';

const CLIENT_SECRET = 'cl13nt-s3cr3t-for-events';
let api: FaultServer;
let oauth: OAuth2Server;
let tokenUrl: string;
const issued: string[] = [];

beforeAll(async () => {
  api = await startFaultServer();
  ({ oauth, tokenUrl } = await startOAuthServer());
  oauth.service.on('beforeResponse', (response) => {
    const body = response.body as { access_token?: string };
    if (body.access_token) issued.push(body.access_token);
  });
});
afterAll(async () => {
  await api?.close();
  await oauth?.stop();
});

interface Entry {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}
function recorder(): { logger: Logger; entries: Entry[] } {
  const entries: Entry[] = [];
  const at = (level: string) => (message: string, fields: object) =>
    entries.push({ level, message, fields: fields as Record<string, unknown> });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, entries };
}

describe('logger and logLevel', () => {
  it('at debug: request, response, retry (wait and why), response, error, each with the call fields', async () => {
    let n = 0;
    api.handle((_req, res) => {
      n += 1;
      json(
        res,
        503,
        { type: 'about:blank', status: 503, title: 'Unavailable' },
        {
          'x-request-id': `req-${n}`,
          'retry-after': '0',
          ratelimit: '"default";r=0;t=7',
          'ratelimit-policy': '"default";q=100;w=60',
        },
      );
    });
    const { logger, entries } = recorder();
    const client = createBaasClient({
      baseUrl: api.url,
      token: SECRET_TOKEN,
      logger,
      logLevel: 'debug',
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    await expect(
      client.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate() }),
    ).rejects.toBeInstanceOf(BaasApiError);
    expect(entries.map((e) => `${e.level} ${e.fields.type}`)).toEqual([
      'debug request',
      'debug response',
      'info retry',
      'debug request',
      'debug response',
      'error error',
    ]);
    const common = {
      operation: 'updateNaturalPerson',
      method: 'PUT',
      url: expect.stringContaining('DocumentNumber=*********25'),
    };
    expect(entries[1]!.fields).toMatchObject({
      ...common,
      attempt: 1,
      status: 503,
      requestId: 'req-1',
      durationMs: expect.any(Number),
      rateLimit: { source: 'ietf', remaining: 0, resetSeconds: 7, limit: 100, windowSeconds: 60 },
    });
    expect(entries[2]!.fields).toMatchObject({
      ...common,
      attempt: 1,
      reason: 'HTTP 503',
      waitMs: expect.any(Number),
      status: 503,
    });
    expect(entries[5]!.fields).toMatchObject({
      ...common,
      attempt: 2,
      errorName: 'BaasApiError',
      errorKind: 'api',
      status: 503,
      requestId: 'req-2',
      durationMs: expect.any(Number),
    });
    expect(entries[1]!.message).toMatch(
      /updateNaturalPerson PUT .* attempt 1 answered HTTP 503 in \d+ ms \(request id req-1\)/,
    );
    expect(entries[2]!.message).toMatch(/attempt 1 failed \(HTTP 503\); retrying in \d+ ms/);
  });

  it('at the default level of a logger (warn) only errors reach it; off sends nothing', async () => {
    api.handle((_req, res) => json(res, 404, { type: 'about:blank', status: 404 }));
    const warn = recorder();
    await createBaasClient({ baseUrl: api.url, token: SECRET_TOKEN, logger: warn.logger })
      .listPixKeys()
      .catch(() => undefined);
    expect(warn.entries.map((e) => e.level)).toEqual(['error']);
    const off = recorder();
    await createBaasClient({ baseUrl: api.url, token: SECRET_TOKEN, logger: off.logger, logLevel: 'off' })
      .listPixKeys()
      .catch(() => undefined);
    expect(off.entries).toEqual([]);
  });

  it('bad options are refused at creation, naming the field', () => {
    expect(() => createBaasClient({ baseUrl: api.url, token: SECRET_TOKEN, logLevel: 'verbose' as never })).toThrow(
      /logLevel must be one of 'off', 'error', 'warn', 'info', 'debug'/,
    );
    expect(() => createBaasClient({ baseUrl: api.url, token: SECRET_TOKEN, logger: { info() {} } as never })).toThrow(
      /logger\.debug must be a function/,
    );
  });
});

describe('client.on', () => {
  it('hands listeners the same objects the logger gets; the returned function stops it', async () => {
    api.handle((_req, res) =>
      json(
        res,
        200,
        { data: [], cursor: { next: null } },
        { 'x-request-id': 'ok-1', 'x-ratelimit-remaining': '41', 'x-ratelimit-limit': '50' },
      ),
    );
    const client = createBaasClient({ baseUrl: api.url, token: SECRET_TOKEN });
    const seen: BaasEvent[] = [];
    const stop = client.on('response', (e) => seen.push(e));
    client.on('request', (e) => seen.push(e));
    await client.listPixKeys({ limit: 5 });
    expect(seen.map((e) => e.type)).toEqual(['request', 'response']);
    expect(seen[1]).toMatchObject({
      type: 'response',
      operation: 'listPixKeys',
      method: 'GET',
      status: 200,
      requestId: 'ok-1',
      attempt: 1,
      rateLimit: { source: 'separate-fields', remaining: 41, limit: 50 },
    });
    stop();
    await client.listPixKeys({ limit: 5 });
    expect(seen.map((e) => e.type)).toEqual(['request', 'response', 'request']);
  });

  it('a 429 BaasApiError carries the rate-limit fields, and so does its error event', async () => {
    api.handle((_req, res) =>
      json(
        res,
        429,
        { type: 'about:blank', status: 429, title: 'Too Many Requests' },
        { 'retry-after': '30', ratelimit: '"burst";r=0;t=30' },
      ),
    );
    const client = createBaasClient({ baseUrl: api.url, token: SECRET_TOKEN, retry: false });
    const errors: BaasEvent[] = [];
    client.on('error', (e) => errors.push(e));
    const error = (await client.listPixKeys().catch((e: unknown) => e)) as BaasApiError;
    expect(error).toBeInstanceOf(BaasApiError);
    expect(error.rateLimit).toEqual({ source: 'ietf', policy: 'burst', remaining: 0, resetSeconds: 30 });
    expect(error.retryAfterMs).toBe(30_000);
    expect(errors[0]).toMatchObject({ type: 'error', status: 429, rateLimit: { remaining: 0, resetSeconds: 30 } });
  });
});

describe('no token, client secret or full CPF in any event or error', () => {
  it('for every event kind and every error kind: message, toJSON, util.inspect and the logged object', async () => {
    const events = new Map<BaasEventType, BaasEvent[]>();
    const { logger, entries } = recorder();
    const errors: unknown[] = [];
    const capture = async (promise: Promise<unknown>) =>
      errors.push(
        await promise.then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
    const listen = (client: ReturnType<typeof createBaasClient>) => {
      for (const type of ['request', 'response', 'retry', 'error', 'token'] as const)
        client.on(type, (e) => events.set(type, [...(events.get(type) ?? []), e]));
      return client;
    };
    const echo =
      (status: number) =>
      (
        req: { url?: string | undefined; headers: Record<string, unknown> },
        res: Parameters<Parameters<FaultServer['handle']>[0]>[1],
      ) =>
        // A server that echoes the credential and the CPF back, in the body and the headers.
        // The bare token and the client secret (as a misbehaving proxy might) are masked only because the
        // client knows them: the token it sent, and the token source's secrets merged into its own.
        json(
          res,
          status,
          {
            type: 'about:blank',
            status,
            title: 'Echo',
            detail: `${String(req.headers.authorization)} for ${VALID_CPF} at ${req.url}; token ${bare(req)}${known(req)}`,
          },
          {
            'x-echo': `${String(req.headers.authorization)} ${VALID_CPF} ${bare(req)}${known(req)}`,
            'x-request-id': 'echo-1',
            'retry-after': '0',
          },
        );
    const bare = (req: { headers: Record<string, unknown> }) =>
      String(req.headers.authorization).replace(/^Bearer /, '');
    // Only to the client whose token source holds the secret (a client with a fixed token cannot know it).
    const known = (req: { headers: Record<string, unknown> }) =>
      bare(req) === SECRET_TOKEN ? '' : ` secret ${CLIENT_SECRET}`;

    const tokenSource = clientCredentials({ tokenUrl, clientId: 'acme', clientSecret: CLIENT_SECRET });
    const options = {
      baseUrl: api.url,
      logger,
      logLevel: 'debug' as const,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    };
    const withSource = listen(createBaasClient({ ...options, token: tokenSource }));
    const withFixed = listen(createBaasClient({ ...options, token: SECRET_TOKEN }));
    const update = (client: typeof withFixed, extra: object = {}) =>
      client.updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate(), ...extra });

    // api (503 retried, then 401 renewed, then refused), with request, response, retry, error and token events
    api.handle(echo(503));
    await capture(update(withSource));
    api.handle(echo(401));
    await capture(update(withSource));
    await capture(update(withFixed));
    // validation: a bad CPF is refused before sending
    await capture(update(withFixed, { documentNumber: `${VALID_CPF.slice(0, 10)}0` }));
    // timeout
    api.handle(() => undefined);
    await capture(update(withFixed, { timeoutMs: 50, retry: false }));
    // response: an HTML page echoing the credential
    api.handle((req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html>${String(req.headers.authorization)} ${VALID_CPF}</html>`);
    });
    await capture(update(withFixed, { retry: false }));
    // auth: the token endpoint refuses, echoing the secret
    tokenSource.invalidate();
    oauth.service.once('beforeResponse', (response) => {
      response.statusCode = 401;
      response.body = { error: 'invalid_client', error_description: `secret ${CLIENT_SECRET} refused` };
    });
    await capture(update(withSource));
    // network: nothing listens
    const closed = createBaasClient({ ...options, baseUrl: 'http://127.0.0.1:9', token: SECRET_TOKEN, retry: false });
    await capture(update(listen(closed)));

    expect(errors.map((e) => (e as { kind?: string }).kind).sort()).toEqual([
      'api',
      'api',
      'api',
      'auth',
      'network',
      'response',
      'timeout',
      'validation',
    ]);
    expect([...events.keys()].sort()).toEqual(['error', 'request', 'response', 'retry', 'token']);
    expect(events.get('token')!.map((e) => (e as { action: string }).action)).toEqual(
      expect.arrayContaining(['fetched', 'invalidated', 'failed']),
    );
    expect(issued.length).toBeGreaterThan(0);

    const secrets = [SECRET_TOKEN, CLIENT_SECRET, VALID_CPF, ...issued];
    const texts: string[] = [];
    for (const error of errors) {
      texts.push(String((error as Error).message), JSON.stringify(error), inspect(error, { depth: 10 }));
    }
    for (const list of events.values())
      for (const event of list) texts.push(JSON.stringify(event), inspect(event, { depth: 10 }));
    for (const entry of entries)
      texts.push(entry.message, JSON.stringify(entry.fields), inspect(entry.fields, { depth: 10 }));
    for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
    // And what was masked really was there to mask: the server echoed it.
    expect(texts.join('\n')).toMatch(/\[REDACTED\]/);
    expect(texts.join('\n')).toContain('*********25');
  });
});
