// What a credential failure means on the command line (src/cli/connection/credentials.ts), the same for
// verify, update-many and export-keys: which failures are credential failures at all, what the user must
// fix (the credentials, --token-url, or nothing: try again), the exit status that follows, and the words
// of the table's row and of the message. Then the flags as credentialsFrom takes them: which credential
// a run names, the header check of a token by where it came from, --allow-insecure-http, --scope and
// --auth-method handed to clientCredentials, and its refusals named by the flag the user typed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BaasTokenError, type BaasTokenErrorInit } from '../../../src/auth/token-error.js';
import {
  type CredentialRefusal,
  credentialFailure,
  credentialHint,
  credentialsFrom,
  exitOfTrouble,
  MISSING_CREDENTIALS,
  refusalMessage,
  refusalSeen,
  refusalStatus,
  staticToken,
  tokenEndpointRefusal,
  troubleOf,
} from '../../../src/cli/connection/credentials.js';
import { EXIT } from '../../../src/cli/connection/exit-codes.js';
import { main } from '../../../src/cli/main.js';
import { BaasApiError, BaasAuthError, BaasNetworkError } from '../../../src/errors.js';
import { Secrets } from '../../../src/redact.js';
import { credentialRefusal as refusal } from '../../support/credential-refusal.js';
import { capture } from '../in-process.js';

const NONE = { secrets: Secrets.none };
const TOKEN_URL = 'https://auth.example/oauth/token';
const SECRET = 'client-secret-0815-never-shown';

afterEach(() => {
  vi.unstubAllGlobals();
});

const tokenError = (init: Partial<BaasTokenErrorInit> & Pick<BaasTokenErrorInit, 'failure'>) =>
  new BaasTokenError({ tokenUrl: TOKEN_URL, detail: 'it failed', secrets: Secrets.none, ...init });

const endpoint = (
  status: number | undefined,
  failure: CredentialRefusal['failure'] = 'rejected',
): CredentialRefusal => ({
  by: 'token endpoint',
  status,
  failure,
});

describe('troubleOf: what the user must fix', () => {
  it.each([
    // The service's 401 or 403: the credentials.
    [{ by: 'service', status: 401 }, 'refused'],
    [{ by: 'service', status: 403 }, 'refused'],
    // No answer, or none in time: nothing typed is known to be wrong, whatever the status said.
    [endpoint(undefined, 'network'), 'unavailable'],
    [endpoint(404, 'network'), 'unavailable'],
    [endpoint(undefined, 'timeout'), 'unavailable'],
    [endpoint(400, 'timeout'), 'unavailable'],
    // An answer that is no token: a 2xx page is not the token endpoint; anything else is its failure.
    [endpoint(200, 'invalid_response'), 'token-url'],
    [endpoint(299, 'invalid_response'), 'token-url'],
    [endpoint(300, 'invalid_response'), 'unavailable'],
    [endpoint(400, 'invalid_response'), 'unavailable'],
    [endpoint(undefined, 'invalid_response'), 'unavailable'],
    // The endpoint's refusal, by its status.
    [endpoint(404), 'token-url'],
    [endpoint(405), 'token-url'],
    [endpoint(403), 'refused'],
    [endpoint(406), 'refused'],
    [endpoint(400), 'refused'],
    [endpoint(401), 'refused'],
    [endpoint(499), 'refused'],
    [endpoint(500), 'unavailable'],
    [endpoint(503), 'unavailable'],
    [endpoint(429), 'unavailable'],
    [endpoint(428), 'refused'],
    [endpoint(430), 'refused'],
    // A token source of the user's own that failed: no status, no failure.
    [{ by: 'token endpoint', status: undefined }, 'refused'],
    [{ by: 'token endpoint', status: 404 }, 'token-url'],
  ] as [CredentialRefusal, string][])('%j: %s', (refusal, trouble) => {
    expect(troubleOf(refusal)).toBe(trouble);
  });

  it('the exit status: the usage status when the command line must change, the run-failed status when only unavailable', () => {
    expect(exitOfTrouble('refused', 7)).toBe(EXIT.usage);
    expect(exitOfTrouble('token-url', 7)).toBe(EXIT.usage);
    expect(exitOfTrouble('unavailable', 7)).toBe(7);
    expect(exitOfTrouble('unavailable', EXIT.failed)).toBe(EXIT.failed);
  });
});

describe('which failures are credential failures', () => {
  it("the service's 401 and 403 are; its other answers are not", () => {
    for (const status of [401, 403])
      expect(credentialFailure(new BaasApiError({ status }, NONE))).toStrictEqual({ by: 'service', status });
    for (const status of [400, 402, 404, 407, 422, 500])
      expect(credentialFailure(new BaasApiError({ status }, NONE)), String(status)).toBeUndefined();
  });

  it("a token endpoint's BaasTokenError, met directly (verify) or as the client's BaasAuthError cause", () => {
    const refused = tokenError({ failure: 'rejected', status: 400, error: 'invalid_client' });
    const expected = { by: 'token endpoint', status: 400, failure: 'rejected', code: 'invalid_client' };
    expect(credentialFailure(refused)).toStrictEqual(expected);
    expect(credentialFailure(new BaasAuthError('no token', NONE, { cause: refused }))).toStrictEqual(expected);
    expect(credentialFailure(tokenError({ failure: 'timeout' }))).toStrictEqual({
      by: 'token endpoint',
      status: undefined,
      failure: 'timeout',
    });
  });

  it('a BaasAuthError of a token source of the user own (no BaasTokenError behind it): credentials not usable, no status', () => {
    for (const cause of [undefined, new Error('my vault is down'), 'text'])
      expect(credentialFailure(new BaasAuthError('no token', NONE, { cause }))).toStrictEqual({
        by: 'token endpoint',
        status: undefined,
      });
  });

  it('anything else is not one', () => {
    for (const error of [
      new Error('boom'),
      new BaasNetworkError('ECONNREFUSED', NONE),
      undefined,
      null,
      'x',
      { status: 401 },
    ])
      expect(credentialFailure(error)).toBeUndefined();
    expect(tokenEndpointRefusal(new BaasAuthError('no token', NONE))).toBeUndefined();
    expect(tokenEndpointRefusal(new BaasApiError({ status: 401 }, NONE))).toBeUndefined();
  });

  it("the endpoint's error is kept only when it is a code as RFC 6749 spells them, and only for a refusal", () => {
    const codeOf = (init: Partial<BaasTokenErrorInit> & Pick<BaasTokenErrorInit, 'failure'>) =>
      tokenEndpointRefusal(tokenError({ status: 400, ...init }))?.code;
    expect(codeOf({ failure: 'rejected', error: 'invalid_client' })).toBe('invalid_client');
    expect(codeOf({ failure: 'rejected', error: 'a' })).toBe('a');
    expect(codeOf({ failure: 'rejected', error: 'x'.repeat(40) })).toBe('x'.repeat(40));
    for (const error of [
      'x'.repeat(41),
      'Invalid_Client',
      'invalid client',
      'invalid-client',
      'invalid_client!',
      '',
      ' invalid_client',
      'invalid_client\n',
    ])
      expect(codeOf({ failure: 'rejected', error }), JSON.stringify(error)).toBeUndefined();
    expect(codeOf({ failure: 'rejected' })).toBeUndefined();
    expect(codeOf({ failure: 'invalid_response', error: 'invalid_client' })).toBeUndefined();
    expect('code' in tokenEndpointRefusal(tokenError({ failure: 'rejected', status: 400, error: 'Nope' }))!).toBe(
      false,
    );
  });
});

describe('the words of a refusal', () => {
  it('its status, as the table shows it', () => {
    expect(refusalStatus({ by: 'service', status: 401 })).toBe('401');
    expect(refusalStatus({ ...endpoint(400), code: 'invalid_client' })).toBe('400 invalid_client');
    expect(refusalStatus(endpoint(undefined, 'network'))).toBe('no status');
    expect(refusalStatus({ ...endpoint(undefined), code: 'invalid_grant' })).toBe('no status invalid_grant');
  });

  it.each([
    [{ by: 'service', status: 403 }, 'credentials refused (403)'],
    [endpoint(404), 'not a token endpoint (404)'],
    [endpoint(200, 'invalid_response'), 'not a token endpoint (200)'],
    [endpoint(503), 'no token from the token endpoint (503)'],
    [endpoint(502, 'invalid_response'), 'no token from the token endpoint (502)'],
    [endpoint(undefined, 'timeout'), 'no token from the token endpoint (timeout)'],
    [endpoint(undefined, 'network'), 'no token from the token endpoint (network)'],
    [{ ...endpoint(400), code: 'invalid_client' }, 'refused by the token endpoint (400 invalid_client)'],
    [{ by: 'token endpoint', status: undefined }, 'refused by the token endpoint (no status)'],
  ] as [CredentialRefusal, string][])('the table row of %j: %s', (refusal, seen) => {
    expect(refusalSeen(refusal)).toBe(seen);
  });

  const withUrl = { kind: 'client credentials', shownTokenUrl: 'https://auth.example/oauth/token?x=REDACTED' } as const;
  it.each([
    [
      withUrl,
      endpoint(404),
      'the token URL https://auth.example/oauth/token?x=REDACTED answered 404 (not found): it is not the token endpoint; check --token-url',
    ],
    [
      withUrl,
      endpoint(405),
      'the token URL https://auth.example/oauth/token?x=REDACTED answered 405 (method not allowed): it is not the token endpoint; check --token-url',
    ],
    [
      withUrl,
      endpoint(200, 'invalid_response'),
      'the token URL https://auth.example/oauth/token?x=REDACTED answered 200 but gave no usable token: is it the token endpoint? check --token-url',
    ],
    [
      withUrl,
      endpoint(429),
      'the token URL https://auth.example/oauth/token?x=REDACTED answered 429 (too many requests): no token was issued; try again later, or check --token-url',
    ],
    [
      withUrl,
      endpoint(500),
      'the token URL https://auth.example/oauth/token?x=REDACTED answered 500 (a server error): no token was issued; try again later, or check --token-url',
    ],
    [
      withUrl,
      endpoint(400, 'invalid_response'),
      'the token URL https://auth.example/oauth/token?x=REDACTED answered 400 (a client error) with no usable token: no token was issued; try again later, or check --token-url',
    ],
    [
      withUrl,
      endpoint(undefined, 'invalid_response'),
      'the token URL https://auth.example/oauth/token?x=REDACTED answered with no usable token: no token was issued; try again later, or check --token-url',
    ],
    [
      withUrl,
      endpoint(undefined, 'timeout'),
      'the token URL https://auth.example/oauth/token?x=REDACTED did not answer in time: no token was issued; try again later, or check --token-url',
    ],
    [
      withUrl,
      endpoint(undefined, 'network'),
      'the token URL https://auth.example/oauth/token?x=REDACTED could not be reached: no token was issued; try again later, or check --token-url',
    ],
    [
      withUrl,
      { ...endpoint(401), code: 'invalid_client' },
      'the token endpoint refused the client credentials (401 invalid_client): check --client-id, BAAS_CLIENT_SECRET (or --client-secret), --scope and --token-url',
    ],
    [
      { kind: 'token' },
      { by: 'service', status: 401 },
      'the service refused the credentials (401): check --token / BAAS_TOKEN',
    ],
    [
      withUrl,
      { by: 'service', status: 403 },
      'the service refused the credentials (403): check --client-id, BAAS_CLIENT_SECRET (or --client-secret), --scope and --token-url',
    ],
    // Without a token URL to show (a token source of the user's own), none is named.
    [
      { kind: 'token' },
      endpoint(404),
      'the token URL answered 404 (not found): it is not the token endpoint; check --token-url',
    ],
    [
      { kind: 'token' },
      endpoint(200, 'invalid_response'),
      'the token URL answered 200 but gave no usable token: is it the token endpoint? check --token-url',
    ],
    [
      { kind: 'token', shownTokenUrl: '' },
      endpoint(undefined, 'network'),
      'the token URL could not be reached: no token was issued; try again later, or check --token-url',
    ],
  ] as [Parameters<typeof refusalMessage>[0], CredentialRefusal, string][])(
    '%j, %j: the message',
    (source, refusal, message) => {
      expect(refusalMessage(source, refusal)).toBe(message);
    },
  );

  it('a status of 300 and up is described in words, as every answer past the 2xx is; a 2xx is not', () => {
    // Only that words follow it: which words a 3xx gets is the message's own matter.
    expect(refusalMessage(withUrl, endpoint(300, 'invalid_response'))).toMatch(
      / answered 300 \(.+\) with no usable token: /,
    );
    expect(refusalMessage(withUrl, endpoint(302, 'invalid_response'))).toMatch(
      / answered 302 \(.+\) with no usable token: /,
    );
    expect(refusalMessage(withUrl, endpoint(299, 'invalid_response'))).toMatch(
      / answered 299 but gave no usable token: /,
    );
  });

  it('where to look, by the kind of credential', () => {
    expect(credentialHint('token')).toBe('check --token / BAAS_TOKEN');
    expect(credentialHint('client credentials')).toBe(
      'check --client-id, BAAS_CLIENT_SECRET (or --client-secret), --scope and --token-url',
    );
    expect(credentialHint('none')).toBe(MISSING_CREDENTIALS);
  });
});

describe('the flags as credentialsFrom takes them', () => {
  it('which credential a run names: a token, client credentials, or none', async () => {
    expect(credentialsFrom({ token: 'tok-123456' }, {}).kind).toBe('token');
    expect(credentialsFrom({}, { BAAS_TOKEN: 'tok-123456' }).kind).toBe('token');
    expect(staticToken('tok-123456').kind).toBe('token');
    for (const none of [credentialsFrom({}, {}), credentialsFrom({ token: '' }, {}), staticToken(undefined)])
      expect(none.kind).toBe('none');
    const source = credentialsFrom({ 'token-url': TOKEN_URL, 'client-id': 'cid' }, { BAAS_CLIENT_SECRET: SECRET });
    expect(source.kind).toBe('client credentials');
    expect(source.shownTokenUrl).toBe(TOKEN_URL);
    expect(credentialsFrom({ token: 'tok-123456' }, {}).shownTokenUrl).toBeUndefined();
    await source.close();
  });

  it('--token-url as messages show it: its query values hidden, the secret masked', () => {
    const source = credentialsFrom(
      { 'token-url': `https://auth.example/t/${SECRET}?tenant=acme&k=${SECRET}`, 'client-id': 'cid' },
      { BAAS_CLIENT_SECRET: SECRET },
    );
    expect(source.shownTokenUrl).toBe('https://auth.example/t/[REDACTED]?tenant=REDACTED&k=REDACTED');
  });

  it('a token given as the whole header value is refused, named by where it came from, never shown', () => {
    const bad = 'Bearer tok-1234-abcd';
    const fromFlag = refusal({ token: bad }, { BAAS_TOKEN: 'tok-good-123' });
    expect(fromFlag).toMatch(/^--token starts with "Bearer "/);
    const fromEnv = refusal({}, { BAAS_TOKEN: bad });
    expect(fromEnv).toMatch(/^BAAS_TOKEN starts with "Bearer "/);
    expect(fromEnv.slice('BAAS_TOKEN'.length)).toBe(fromFlag.slice('--token'.length));
    for (const message of [fromFlag, fromEnv]) expect(message).not.toContain('tok-1234');
    // A good token beside it is taken, whichever gives it: the flag before the variable.
    expect(credentialsFrom({ token: 'tok-good-123' }, { BAAS_TOKEN: bad }).token).toBe('tok-good-123');
    expect(refusal({ token: bad }, {})).toMatch(/^--token /);
  });

  it('--allow-insecure-http lets --token-url be plain http to another host, and the token request goes there', async () => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      seen.push(String(url));
      return Response.json({ access_token: 'issued-token-4711', token_type: 'Bearer', expires_in: 300 });
    });
    const flags = { 'token-url': 'http://auth.example/token', 'client-id': 'cid' };
    expect(refusal(flags, { BAAS_CLIENT_SECRET: SECRET })).toMatch(/^--token-url uses plain http/);
    expect(refusal({ ...flags, 'allow-insecure-http': false }, { BAAS_CLIENT_SECRET: SECRET })).toMatch(
      /^--token-url uses plain http/,
    );
    const source = credentialsFrom({ ...flags, 'allow-insecure-http': true }, { BAAS_CLIENT_SECRET: SECRET });
    expect(await source.authorization()).toBe('Bearer issued-token-4711');
    expect(seen).toEqual(['http://auth.example/token']);
  });

  it("clientCredentials' refusals are named by the flag the user typed, never the value", () => {
    const env = { BAAS_CLIENT_SECRET: SECRET };
    const scope = refusal({ 'token-url': TOKEN_URL, 'client-id': 'cid', scope: 'pix "read"' }, env);
    expect(scope).toMatch(/^--scope \S/);
    expect(scope).not.toContain('clientCredentials');
    const id = refusal({ 'token-url': TOKEN_URL, 'client-id': 'c\nid' }, env);
    expect(id).toMatch(/^--client-id \S/);
    const secret = refusal({ 'token-url': TOKEN_URL, 'client-id': 'cid' }, { BAAS_CLIENT_SECRET: 'se\ncret-0815' });
    expect(secret).toMatch(/^the client secret \(BAAS_CLIENT_SECRET or --client-secret\) \S/);
    for (const message of [scope, id, secret]) {
      expect(message).not.toContain('se\ncret');
      expect(message).not.toContain('clientCredentials');
    }
  });
});

describe('in the command line', () => {
  it('a command that calls the API without any credential stops before sending, with the usage status and where to give them', async () => {
    const context = capture();
    const sent: string[] = [];
    context.fetch = (async (url: string) => {
      sent.push(String(url));
      return new Response('{}');
    }) as typeof fetch;
    context.env = {};
    const code = await main(['verify', '--base-url', 'https://api.example'], undefined, context);
    expect(code).toBe(EXIT.usage);
    expect(context.stderr.join('\n')).toContain(MISSING_CREDENTIALS);
    expect(sent).toEqual([]);
  });
});
