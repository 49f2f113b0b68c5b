// OAuth2 client credentials (RFC 6749 §4.4) as a token source for `createBaasClient({ token })`.
// One token is cached until `expires_in` minus a margin; concurrent callers on a cold or stale cache
// share one token request; a failed request is not cached; `invalidate()` drops a token the API
// refused (401).
import { lazyTlsFetch } from '../tls/lazy.js';
import { resolveClientCredentials, type ClientCredentialsOptions, type ResolvedClientCredentials } from './options.js';
import { TokenError } from './token-error.js';
import type { TokenEvent } from '../logging/events.js';

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

interface CachedToken {
  value: string;
  /** As the endpoint said, or the default. */
  expiresInSeconds: number;
  /** When to fetch a new one (expiry minus the margin), in `now()` milliseconds. */
  refreshAt: number;
}

const MASK = '[REDACTED]';
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Masks each secret inside a text. Secrets here are long; short ones would mask innocent text. */
function mask(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(MASK);
  return out;
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
  const secrets = () => [settings.clientSecret, base64(`${formEncode(settings.clientId)}:${formEncode(settings.clientSecret)}`), ...issued];

  // Built now, so a malformed tls option fails at creation; undici loads on the first request.
  const send: ((request: Request) => Promise<Response>) & { close?: () => Promise<void> } =
    settings.fetch ?? (settings.tls ? lazyTlsFetch(settings.tls, 'clientCredentials.tls') : (request) => globalThis.fetch(request));

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
      inflight = requestToken(settings, send, secrets).then(
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

async function requestToken(settings: ResolvedClientCredentials, fetch: (request: Request) => Promise<Response>, secrets: () => string[]): Promise<CachedToken> {
  const fail = (init: Omit<ConstructorParameters<typeof TokenError>[0], 'tokenUrl'>) => new TokenError({ ...init, tokenUrl: settings.shownUrl });
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (settings.scope) form.set('scope', settings.scope);
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
  if (settings.authMethod === 'client_secret_basic') {
    headers.set('authorization', `Basic ${base64(`${formEncode(settings.clientId)}:${formEncode(settings.clientSecret)}`)}`);
  } else {
    form.set('client_id', settings.clientId);
    form.set('client_secret', settings.clientSecret);
  }
  const startedAt = settings.now();
  const signal = AbortSignal.timeout(settings.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(new Request(settings.tokenUrl, { method: 'POST', headers, body: form, signal, redirect: 'error' }));
    text = await response.text();
  } catch (error) {
    if (signal.aborted) {
      throw fail({ failure: 'timeout', detail: `no answer within ${settings.timeoutMs} ms`, cause: error });
    }
    // Network errors name hosts and codes, not request contents; the message is masked all the same.
    const reason = mask(describeCause(error), secrets());
    throw fail({ failure: 'network', detail: reason, cause: error });
  }

  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const str = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

  if (!response.ok) {
    const error = str(fields.error);
    const description = str(fields.error_description);
    const shown = description === undefined ? undefined : mask(description, secrets()).slice(0, 500);
    const errorUri = str(fields.error_uri);
    const code = error ? mask(error, secrets()).slice(0, 100) : undefined;
    throw fail({
      failure: 'rejected',
      status: response.status,
      error: code,
      errorDescription: shown,
      errorUri,
      detail: code ? `HTTP ${response.status} ${code}${shown ? `: ${shown}` : ''}` : `HTTP ${response.status} without an RFC 6749 error body`,
    });
  }

  // The body of a 200 holds the token: nothing of it goes into an error.
  const token = fields.access_token;
  if (typeof token !== 'string' || token.length === 0) {
    throw fail({ failure: 'invalid_response', status: response.status, detail: `HTTP ${response.status} without an access_token (${body === undefined ? 'body is not JSON' : 'JSON without access_token'})` });
  }
  if (CONTROL.test(token)) throw fail({ failure: 'invalid_response', status: response.status, detail: 'access_token contains control characters' });
  const type = fields.token_type;
  if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
    throw fail({ failure: 'invalid_response', status: response.status, detail: `token_type is ${typeof type === 'string' ? JSON.stringify(type.slice(0, 30)) : typeof type}, not Bearer` });
  }
  const expiresIn = typeof fields.expires_in === 'string' ? Number(fields.expires_in) : fields.expires_in;
  const lifetimeMs = typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : settings.defaultExpiresInMs;
  const margin = Math.min(settings.refreshMarginMs, lifetimeMs / 2);
  // From when the request started: the server's clock started counting no earlier.
  return { value: token, expiresInSeconds: lifetimeMs / 1000, refreshAt: startedAt + lifetimeMs - margin };
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    const message = current instanceof Error ? current.message : String(current);
    parts.push(typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}
