// A token endpoint as an injected fetch: it records what clientCredentials sends and answers what
// each test tells it to, so a test sees the request and the answer word for word, with no server.
import { inspect } from 'node:util';
import { expect } from 'vitest';
import { clientCredentials, type ClientCredentialsOptions } from '../../src/auth/client-credentials.js';
import { BaasTokenError } from '../../src/auth/token-error.js';
import type { FetchLike } from '../../src/fetch.js';

export interface SentTokenRequest {
  url: string;
  init: RequestInit;
  /** The form, decoded. */
  form: Record<string, string>;
  headers: Record<string, string>;
}

export type TokenAnswer = (request: SentTokenRequest, index: number) => Response | Promise<Response>;

export interface FakeEndpoint {
  fetch: FetchLike;
  sent: SentTokenRequest[];
}

/** Answers each request with `answer` (default: a fresh bearer token, `token-1`, `token-2`, … for 3600 s). */
export function fakeEndpoint(
  answer: TokenAnswer = (_request, index) => tokenAnswer({ access_token: `token-${index + 1}` }),
): FakeEndpoint {
  const sent: SentTokenRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const request: SentTokenRequest = {
      url,
      init,
      form: Object.fromEntries(new URLSearchParams(String(init.body))),
      headers,
    };
    sent.push(request);
    return answer(request, sent.length - 1);
  };
  return { fetch, sent };
}

/** A 200 with the given JSON fields, token_type Bearer and expires_in 3600 unless given. */
export const tokenAnswer = (fields: Record<string, unknown>, status = 200): Response =>
  Response.json({ token_type: 'Bearer', expires_in: 3600, ...fields }, { status });

/** An answer of this status and raw body. */
export const rawAnswer = (status: number, body: string): Response =>
  new Response(body, { status, headers: { 'content-type': 'application/json' } });

export const FAKE_URL = 'https://auth.example/oauth/token';

export const SECRET = 'fake-client-secret-1';

export const fakeOptions = (
  endpoint: FakeEndpoint,
  extra: Partial<ClientCredentialsOptions> = {},
): ClientCredentialsOptions => ({
  tokenUrl: FAKE_URL,
  clientId: 'acme-payments',
  clientSecret: SECRET,
  fetch: endpoint.fetch,
  ...extra,
});

/** The BaasTokenError the first token of a source with these options rejects with. */
export async function failure(
  endpoint: FakeEndpoint,
  extra: Partial<ClientCredentialsOptions> = {},
): Promise<BaasTokenError> {
  const error = await clientCredentials(fakeOptions(endpoint, extra))().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BaasTokenError);
  return error as BaasTokenError;
}

/** Every form of the error (text, JSON, inspect, stack): none may hold one of `secrets`. */
export function expectClean(error: unknown, secrets: string[]): void {
  const texts = [String(error), JSON.stringify(error), inspect(error, { depth: 10 }), String((error as Error).stack)];
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}
