// OAuth2 client credentials (RFC 6749 §4.4) as a token source for `createBaasClient({ token })`.
// One token is cached until `expires_in` minus a margin; concurrent callers on a cold or stale cache
// share one token request; a failed request is not cached; `invalidate()` drops a token the API
// refused (401). The options are checked here, at creation; the token request itself
// (request-token.ts) loads on first use, so a client that does not use this source does not ship it.
import type { FetchLike } from '../client/options.js';
import { redactedCause } from '../client/token.js';
import type { TokenEvent } from '../logging/events.js';
import { lazyTlsFetch } from '../tls/lazy.js';
import { resolveClientCredentials, type ClientCredentialsOptions } from './options.js';
import type { CachedToken } from './request-token.js';
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
  let cached: CachedToken | undefined;
  let inflight: Promise<CachedToken> | undefined;
  // Every access token issued so far (bounded), so none leaks through an error text.
  const issued: string[] = [];
  const basic = base64(`${formEncode(settings.clientId)}:${formEncode(settings.clientSecret)}`);
  const secrets = () => [settings.clientSecret, basic, ...issued];

  // Built now, so a malformed tls option fails at creation; undici loads on the first request.
  const send: FetchLike & { close?: () => Promise<void> } =
    settings.fetch ?? (settings.tls ? lazyTlsFetch(settings.tls, 'clientCredentials.tls') : (url, init) => globalThis.fetch(url, init));

  const observers = new Set<(event: TokenEvent) => void>();
  const tell = (event: TokenEvent) => {
    for (const observer of observers) {
      try {
        observer(event);
      } catch {
        // An observer's failure is not the token's.
      }
    }
  };

  const source = async (): Promise<string> => {
    if (cached && settings.now() < cached.refreshAt) return cached.value;
    if (!inflight) {
      // Set before any await, so every caller arriving meanwhile joins this one request.
      const startedAt = settings.now();
      inflight = import('./request-token.js')
        .then((m) =>
          m.requestToken(settings, send, secrets, basic, (init) =>
            new TokenError({ ...init, tokenUrl: settings.shownUrl, ...(init.cause === undefined ? {} : { cause: redactedCause(init.cause, secrets()) }) }),
          ),
        )
        .then(
          (token) => {
            tell({ type: 'token', action: 'fetched', tokenUrl: settings.shownUrl, durationMs: settings.now() - startedAt, expiresInSeconds: token.expiresInSeconds });
            issued.push(token.value);
            if (issued.length > 8) issued.shift();
            cached = token;
            inflight = undefined;
            return token;
          },
          (error: unknown) => {
            inflight = undefined;
            const e = error as TokenError;
            tell({ type: 'token', action: 'failed', tokenUrl: settings.shownUrl, error: e.error ?? e.failure, message: e.message });
            throw error;
          },
        );
    }
    return (await inflight).value;
  };

  return Object.assign(source, {
    invalidate(token?: string) {
      if (cached && (token === undefined || cached.value === token)) {
        cached = undefined;
        tell({ type: 'token', action: 'invalidated', tokenUrl: settings.shownUrl });
      }
    },
    observe(listener: (event: TokenEvent) => void) {
      observers.add(listener);
      return () => observers.delete(listener);
    },
    secrets,
    async close() {
      if (settings.tls) await send.close?.();
    },
  });
}
