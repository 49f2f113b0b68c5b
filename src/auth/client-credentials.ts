// OAuth2 client credentials (RFC 6749 §4.4) as a token source for `createBaasClient({ token })`.
// The options are checked here, at creation, and the errors are built here (TokenError is an
// AuthError of the entry); the cache, its single flight (token-cache.ts) and the token request
// itself (request-token.ts) load on first use, so a client that does not use this source ships
// only this file and the option checks.
import { BodyTooLargeError, readTextWithin } from '../body-limit.js';
import type { FetchLike } from '../fetch.js';
import { redactedCause } from '../redact.js';
import type { TokenEvent } from '../logging/events.js';
import { lazyTlsFetch } from '../tls/lazy.js';
import { resolveClientCredentials, type ClientCredentialsOptions } from './options.js';
import type { TokenCache } from './token-cache.js';
import { TokenError } from './token-error.js';

export type { ClientCredentialsOptions, ClientAuthMethod } from './options.js';

/** Callable as the client's `token` option; also lets the client drop a refused token. */
export interface ClientCredentialsTokenSource {
  (): Promise<string>;
  /**
   * Drops the cached token so the next call fetches a new one. With `token`, drops it only if it is
   * still the cached one: of many calls refused with the same old token, only the first refetches.
   */
  invalidate(token?: string): void;
  /** Every token and secret this source knows, for the client's redaction. */
  secrets(): string[];
  /**
   * Hears each token fetched, dropped or failed (the client forwards them to its log and event
   * listeners). The events carry no token and no secret. Returns the function that stops it.
   */
  observe(listener: (event: TokenEvent) => void): () => void;
  /** Releases the TLS agent, if `tls` was given. */
  close(): Promise<void>;
}

/** application/x-www-form-urlencoded, as RFC 6749 §2.3.1 asks before the Basic encoding. */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/** btoa for any UTF-8 text (form encoding already made it ASCII, but stay safe). */
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

export function clientCredentials(options: ClientCredentialsOptions): ClientCredentialsTokenSource {
  const settings = resolveClientCredentials(options);
  const basic = base64(`${formEncode(settings.clientId)}:${formEncode(settings.clientSecret)}`);
  let cache: TokenCache | undefined;
  let loading: Promise<TokenCache> | undefined;
  const secrets = () => [settings.clientSecret, basic, ...(cache?.issued ?? [])];

  // Built now, so a tls that is not an object fails at creation; undici loads on the first request.
  const tlsFetch = settings.tls ? lazyTlsFetch(settings.tls, 'clientCredentials.tls') : undefined;
  const send: FetchLike = settings.fetch ?? tlsFetch ?? ((url, init) => globalThis.fetch(url, init));

  // Listeners may come before the first token; the cache tells them (token-cache.ts).
  const observers = new Set<(event: TokenEvent) => void>();

  // The cache and the token request load together on first use; a failed load is tried again.
  // TokenError (an AuthError of the entry), redactedCause and the bounded body read come along, so
  // the chunk imports none of them.
  const limit = { readTextWithin, BodyTooLargeError };
  const load = () =>
    (loading ??= import('./token-cache.js').then(
      (m) => (cache = m.tokenCache({ settings, send, secrets, basic, observers, TokenError, redactedCause, limit })),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));

  return Object.assign(async () => (cache ?? (await load())).get(), {
    // Before the first token there is nothing to drop.
    invalidate: (token?: string) => cache?.invalidate(token),
    observe(listener: (event: TokenEvent) => void) {
      observers.add(listener);
      return () => observers.delete(listener);
    },
    secrets,
    async close() {
      await tlsFetch?.close();
    },
  });
}
