// The client id is a secret (SECURITY.md, "The client id is a secret"): a provider or a token endpoint
// echoing it, bare, form-encoded or inside the Basic value, shows it on no surface of the client — the
// error in every form, its cause, the logger, the events and `.withResponse()`.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clientCredentials, createBaasClient, type BaasError, type Logger } from '../../src/index.js';

const CLIENT_ID = 'acme client/7f3a';
const SECRET = 'client-secret-value-1';
const TOKEN_URL = 'https://auth.example.test/oauth/token';
const BASE_URL = 'https://api.example.test';
const FORM_ID = new URLSearchParams({ v: CLIENT_ID }).toString().slice(2);
const BASIC = Buffer.from(`${FORM_ID}:${SECRET}`).toString('base64');

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A client whose token endpoint and API answer with `token` and `api`; its logger's lines and its events. */
function clientWith(token: () => Response, api: () => Response) {
  const logged: string[] = [];
  const log = (message: string, fields?: unknown) => logged.push(`${message} ${JSON.stringify(fields)}`);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const fetch = async (input: RequestInfo | URL) => (String(input).startsWith(TOKEN_URL) ? token() : api());
  const source = clientCredentials({ tokenUrl: TOKEN_URL, clientId: CLIENT_ID, clientSecret: SECRET, fetch });
  const client = createBaasClient({ baseUrl: BASE_URL, token: source, fetch, retry: false, logger, logLevel: 'debug' });
  const events: string[] = [];
  for (const type of ['request', 'response', 'error', 'token'] as const)
    client.on(type, (event) => events.push(JSON.stringify(event)));
  return { client, logged, events };
}

const forms = (error: BaasError): string[] => [
  error.message,
  String(error),
  String(error.stack),
  JSON.stringify(error),
  inspect(error, { depth: null, showHidden: true }),
  JSON.stringify(inspect((error as { cause?: unknown }).cause, { depth: null })),
];

function expectNoClientId(texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(CLIENT_ID);
    expect(text).not.toContain(FORM_ID);
    expect(text).not.toContain(BASIC);
  }
}

describe('the client id, masked like a secret', () => {
  it('echoed by the API, bare, form-encoded and in a header: on no surface of the error, the logger or the events', async () => {
    const { client, logged, events } = clientWith(
      () => json({ access_token: 'issued-token-0001', token_type: 'Bearer', expires_in: 300 }),
      () =>
        json({ type: 'about:blank', title: `unknown client ${CLIENT_ID}`, detail: `form ${FORM_ID}` }, 403, {
          'x-client': CLIENT_ID,
        }),
    );
    const error = (await client.listPixKeys().catch((e: unknown) => e)) as BaasError;
    expect(error.kind).toBe('api');
    expect(error.message).toContain('unknown client [REDACTED]');
    expectNoClientId([...forms(error), ...logged, ...events]);
    expect(events.length).toBeGreaterThan(0);
  });

  it('echoed by the token endpoint as its token_type, its error_uri and its description: masked in the BaasTokenError and its cause', async () => {
    const { client, logged, events } = clientWith(
      () => json({ access_token: 'issued-token-0002', token_type: CLIENT_ID }),
      () => json({ data: [], cursor: { next: null } }),
    );
    const typed = (await client.listPixKeys().catch((e: unknown) => e)) as BaasError;
    expect(typed.kind).toBe('auth');
    expect(typed.message).toContain('token_type is "[REDACTED]"');

    const refused = clientWith(
      () =>
        json(
          {
            error: 'invalid_client',
            error_description: `client ${CLIENT_ID} (Basic ${BASIC}) refused`,
            error_uri: `https://auth.example.test/help?client_id=${FORM_ID}`,
          },
          401,
        ),
      () => json({ data: [], cursor: { next: null } }),
    );
    const error = (await refused.client.listPixKeys().catch((e: unknown) => e)) as BaasError;
    const cause = (error as { cause?: { errorUri?: string; errorDescription?: string } }).cause;
    expect(cause?.errorDescription).toBe('client [REDACTED] (Basic [REDACTED]) refused');
    expect(cause?.errorUri).not.toContain('7f3a');
    expectNoClientId([...forms(typed), ...forms(error), ...logged, ...events, ...refused.logged, ...refused.events]);
  });

  it('echoed in an answer header: masked in .withResponse()', async () => {
    const { client } = clientWith(
      () => json({ access_token: 'issued-token-0003', token_type: 'Bearer' }),
      () => json({ data: [], cursor: { next: null } }, 200, { 'x-client': `id=${CLIENT_ID}` }),
    );
    const { response } = await client.listPixKeys().withResponse();
    expect(response.headers['x-client']).toBe('id=[REDACTED]');
  });
});
