// OAuth2 client credentials (RFC 6749 §4.4) as a token source for `createBaasClient({ token })`.
// The options are checked here, at creation; the cache and its single flight are token-cache.ts, the
// token request itself request-token.ts.
import type { FetchLike } from '../fetch.js';
import type { TokenEvent } from '../logging/events.js';
import { lazyTlsFetch } from '../tls/lazy.js';
import { runtimeFetch } from '../transport/runtime-fetch.js';
import { resolveClientCredentials, type ClientCredentialsOptions } from './options.js';
import { tokenCache } from './token-cache.js';

export type { ClientCredentialsOptions, ClientAuthMethod } from './options.js';

/** Callable as the client's `token` option; also lets the client drop a refused token. */
export interface ClientCredentialsTokenSource {
  /** A valid access token: the cached one, or a new one fetched (one request however many callers wait). */
  (): Promise<string>;
  /**
   * Drops the cached token so the next call fetches a new one. With `token`, drops it only if it is
   * still the cached one: of many calls refused with the same old token, only the first refetches.
   */
  invalidate(token?: string): void;
  /** Every token and secret this source knows (the client secret and id, the Basic value, each token alive), for the client's redaction. */
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

/**
 * A token source for OAuth2 client credentials (RFC 6749 §4.4), given to `createBaasClient` as `token`: fetches a
 * token, caches it until shortly before it expires, fetches again when the client hears a 401. Its options are
 * checked here, naming the option and never its value; a failed token request rejects with a `BaasTokenError`.
 */
export function clientCredentials(options: ClientCredentialsOptions): ClientCredentialsTokenSource {
  const settings = resolveClientCredentials(options);
  const basic = base64(`${formEncode(settings.clientId)}:${formEncode(settings.clientSecret)}`);
  // The tokens issued so far are masked too; the cache (made below) keeps them. The client id is a
  // secret as well (SECURITY.md): half of the Basic credential, and what a provider's logs key a
  // client by; it is masked by value like the client secret.
  const secrets = (): string[] => [settings.clientSecret, settings.clientId, basic, ...cache.issued];

  // Built now, so a tls that is not an object fails at creation; undici loads on the first request.
  const tlsFetch = settings.tls
    ? lazyTlsFetch(settings.tls, 'clientCredentials.tls', { option: 'tokenUrl', url: new URL(settings.tokenUrl) })
    : undefined;
  const send: FetchLike = settings.fetch ?? tlsFetch ?? runtimeFetch;

  // Listeners may come before the first token; the cache tells them (token-cache.ts).
  const observers = new Set<(event: TokenEvent) => void>();

  const cache = tokenCache({ settings, send, secrets, basic, observers });

  return Object.assign(() => cache.get(), {
    invalidate: (token?: string) => cache.invalidate(token),
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
