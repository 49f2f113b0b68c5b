// Checks for clientCredentials' options, so a misconfiguration fails at creation, naming the field
// and never its value.
import { byteLimitProblem, DEFAULT_MAX_RESPONSE_BYTES } from '../body-limit.js';
import type { FetchLike } from '../fetch.js';
import { isInsecureRemote } from '../loopback.js';
import type { TlsOptions } from '../tls/options.js';
import { MAX_TIMER_MS } from '../transport/attempt.js';
import { misspeltOptionProblem } from '../words.js';

/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1): HTTP Basic, or the two in the form body. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

/** The options of `clientCredentials`. */
export interface ClientCredentialsOptions {
  /** The token endpoint, e.g. `https://sandbox.openfinance.celcoin.dev/v5/token`. https, or http to loopback. */
  tokenUrl: string;
  /** The client id the provider issued; masked on every surface. */
  clientId: string;
  /** The client secret the provider issued; masked on every surface, never stored in an error or an event. */
  clientSecret: string;
  /** Scopes to ask for: a space-separated string or a list. Default none (the server's default). */
  scope?: string | readonly string[];
  /** How the client authenticates (RFC 6749 §2.3.1). Default `client_secret_basic`. */
  authMethod?: ClientAuthMethod;
  /** Seconds before `expires_in` runs out at which a new token is fetched. Default 60, at most half the lifetime. */
  refreshMarginSeconds?: number;
  /**
   * Lifetime assumed when the endpoint sends no `expires_in`. Default 300 seconds, at most 86 400.
   * An `expires_in` that is sent must be a positive number of seconds: 0, a negative number or one
   * that is not finite is refused (a BaasTokenError, `invalid_response`; the token is neither cached nor
   * used). One over 86 400 (24 h) is kept for 86 400 seconds.
   */
  defaultExpiresInSeconds?: number;
  /** Time for one token request. Default 10 000 ms, at most 2^31-1 ms (a timer holds no more). */
  timeoutMs?: number;
  /**
   * The largest token endpoint answer read, in bytes, counted while it streams; past it the request
   * fails with a BaasTokenError (`invalid_response`) naming the limit. Default 10 MiB (10 485 760).
   */
  maxResponseBytes?: number;
  /** A client certificate and/or private CA for the token endpoint (needs the optional peer `undici`). */
  tls?: TlsOptions;
  /** Injected fetch, called as `fetch(url, init)` like the client's (see FetchLike); not together with `tls`. Default the global fetch. */
  fetch?: FetchLike;
  /** Allow plain http to a host other than loopback. Never with a real secret. */
  allowInsecureHttp?: boolean;
}

export interface ResolvedClientCredentials {
  tokenUrl: string;
  /** For messages: origin and path only. */
  shownUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string | undefined;
  authMethod: ClientAuthMethod;
  refreshMarginMs: number;
  defaultExpiresInMs: number;
  /** The longest a token is kept, whatever `expires_in` says. */
  maxExpiresInMs: number;
  timeoutMs: number;
  maxResponseBytes: number;
  tls: TlsOptions | undefined;
  fetch: FetchLike | undefined;
}

// RFC 6749 appendix A: client ids and secrets are visible characters; a control character would
// break the header or the form.
const CONTROL = /[\u0000-\u001f\u007f]/;
// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

const fail = (message: string): never => {
  throw new TypeError(`clientCredentials: ${message}`);
};

/** The longest a token is kept (24 h), however long the endpoint's `expires_in` says it lives. */
export const MAX_EXPIRES_IN_SECONDS = 86_400;

const positive = (
  value: number | undefined,
  name: string,
  fallback: number,
  allowZero: boolean,
  max = Infinity,
): number => {
  if (value === undefined) return fallback;
  // Number.isFinite is false for anything that is not a number (a string from a config file, say).
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0) || value > max) {
    fail(
      `${name} must be a ${allowZero ? 'non-negative' : 'positive'} number${max === Infinity ? '' : `, at most ${max}`}`,
    );
  }
  return value;
};

// Every option's name, once: tsc fails here when ClientCredentialsOptions gains or loses one.
const OPTION_NAMES = Object.keys({
  tokenUrl: true,
  clientId: true,
  clientSecret: true,
  scope: true,
  authMethod: true,
  refreshMarginSeconds: true,
  defaultExpiresInSeconds: true,
  timeoutMs: true,
  maxResponseBytes: true,
  tls: true,
  fetch: true,
  allowInsecureHttp: true,
} satisfies Record<keyof ClientCredentialsOptions, true>);

export function resolveClientCredentials(options: ClientCredentialsOptions): ResolvedClientCredentials {
  if (!options || typeof options !== 'object') fail('options are required: { tokenUrl, clientId, clientSecret }');
  const unknown = misspeltOptionProblem('clientCredentials', options, OPTION_NAMES);
  if (unknown !== undefined) throw new TypeError(unknown);
  // An empty string is what an unset environment variable with a `= ''` default gives: missing, not malformed.
  if (typeof options.tokenUrl !== 'string' || options.tokenUrl === '')
    fail('tokenUrl is required, e.g. "https://auth.example/oauth/token"');
  let url: URL;
  try {
    url = new URL(options.tokenUrl);
  } catch {
    return fail('tokenUrl must be an absolute https URL, e.g. "https://auth.example/oauth/token"');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`tokenUrl must use https, not ${url.protocol}`);
  if (url.username || url.password) fail('tokenUrl must not carry credentials; use clientId and clientSecret');
  if (isInsecureRemote(url) && !options.allowInsecureHttp) {
    fail(
      `tokenUrl uses plain http to ${url.hostname}, which would send the client secret in clear; use https, or pass allowInsecureHttp: true`,
    );
  }
  for (const name of ['clientId', 'clientSecret'] as const) {
    const value = options[name];
    if (typeof value !== 'string' || value.length === 0) fail(`${name} is required (a non-empty string)`);
    if (CONTROL.test(value)) fail(`${name} must not contain control characters`);
  }
  let scope: string | undefined;
  if (options.scope !== undefined) {
    const list = typeof options.scope === 'string' ? options.scope.split(' ').filter(Boolean) : [...options.scope];
    list.forEach((item, i) => {
      if (typeof item !== 'string' || !SCOPE_TOKEN.test(item))
        fail(
          `scope${typeof options.scope === 'string' ? '' : `[${i}]`} must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3`,
        );
    });
    scope = list.length ? list.join(' ') : undefined;
  }
  const authMethod = options.authMethod ?? 'client_secret_basic';
  if (authMethod !== 'client_secret_basic' && authMethod !== 'client_secret_post')
    fail('authMethod must be "client_secret_basic" or "client_secret_post"');
  if (options.tls !== undefined && options.fetch !== undefined)
    fail('give either tls or fetch, not both (tls builds its own fetch)');
  if (options.fetch !== undefined && typeof options.fetch !== 'function') fail('fetch must be a function (url, init)');
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const sizeProblem = byteLimitProblem(maxResponseBytes);
  if (sizeProblem) fail(`maxResponseBytes ${sizeProblem}`);

  return {
    tokenUrl: url.toString(),
    shownUrl: `${url.origin}${url.pathname}`,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scope,
    authMethod,
    refreshMarginMs: positive(options.refreshMarginSeconds, 'refreshMarginSeconds', 60, true) * 1000,
    defaultExpiresInMs:
      positive(options.defaultExpiresInSeconds, 'defaultExpiresInSeconds', 300, false, MAX_EXPIRES_IN_SECONDS) * 1000,
    maxExpiresInMs: MAX_EXPIRES_IN_SECONDS * 1000,
    timeoutMs: positive(options.timeoutMs, 'timeoutMs', 10_000, false, MAX_TIMER_MS),
    maxResponseBytes,
    tls: options.tls,
    fetch: options.fetch,
  };
}
