// Checks for clientCredentials' options, so a misconfiguration fails at creation, naming the field
// and never its value.
import { byteLimitProblem, DEFAULT_MAX_RESPONSE_BYTES } from '../body-limit.js';
import type { FetchLike } from '../fetch.js';
import { isInsecureRemote } from '../loopback.js';
import type { TlsOptions } from '../tls/options.js';
import { MAX_TIMER_MS } from '../transport/attempt.js';
import {
  BOOLEAN,
  checkOptions,
  TLS_SHAPE_RULE,
  isFunction,
  must,
  optionError,
  type OptionRule,
  type OptionRules,
} from '../option-rules.js';

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

/** The longest a token is kept (24 h), however long the endpoint's `expires_in` says it lives. */
export const MAX_EXPIRES_IN_SECONDS = 86_400;

/** A number of at least 0 (or more than 0), at most `max`; Number.isFinite refuses any other type (a config file's string). */
const bounded = (allowZero: boolean, max = Infinity): OptionRule =>
  must(
    (value) =>
      Number.isFinite(value) && (value as number) >= 0 && (allowZero || value !== 0) && (value as number) <= max,
    `must be a ${allowZero ? 'non-negative' : 'positive'} number${max === Infinity ? '' : `, at most ${max}`}`,
  );

/** The token URL, or the words of the rule it breaks. An empty string is what an unset variable gives: missing. */
function tokenUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'is required, e.g. "https://auth.example/oauth/token"';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL, e.g. "https://auth.example/oauth/token"';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must use https, not ${url.protocol}`;
  if (url.username || url.password) return 'must not carry credentials; use clientId and clientSecret';
  return undefined;
}

/** A client id or secret (RFC 6749 appendix A): a non-empty string of visible characters. */
const credential: OptionRule = {
  check: (value) =>
    typeof value !== 'string' || value.length === 0
      ? 'is required (a non-empty string)'
      : CONTROL.test(value)
        ? 'must not contain control characters'
        : undefined,
  error: TypeError,
  required: true,
};

const SCOPE_RULE = 'must be scope tokens (visible characters, no quote or backslash), RFC 6749 §3.3';

// Each option's rule, once: tsc fails here when ClientCredentialsOptions gains or loses one.
const RULES: OptionRules<ClientCredentialsOptions> = {
  tokenUrl: { check: tokenUrlProblem, error: TypeError, required: true },
  clientId: credential,
  clientSecret: credential,
  scope: {
    check: (scope) => {
      if (typeof scope === 'string')
        return scope.split(' ').every((item) => item === '' || SCOPE_TOKEN.test(item)) ? undefined : SCOPE_RULE;
      if (!Array.isArray(scope)) return `${SCOPE_RULE}: a string, e.g. scope: "pix.read", or a list of them`;
      const wrong = scope.findIndex((item) => typeof item !== 'string' || !SCOPE_TOKEN.test(item));
      return wrong < 0 ? undefined : { at: `[${wrong}]`, rule: SCOPE_RULE };
    },
    error: TypeError,
  },
  authMethod: must(
    (method) => method === 'client_secret_basic' || method === 'client_secret_post',
    'must be "client_secret_basic" or "client_secret_post"',
  ),
  refreshMarginSeconds: bounded(true),
  defaultExpiresInSeconds: bounded(false, MAX_EXPIRES_IN_SECONDS),
  timeoutMs: bounded(false, MAX_TIMER_MS),
  maxResponseBytes: { check: byteLimitProblem, error: TypeError },
  // Its members' own rules: checkTlsOptions (src/tls/), when the token source is built; not with fetch, below.
  tls: TLS_SHAPE_RULE,
  fetch: must(isFunction, 'must be a function (url, init)'),
  allowInsecureHttp: BOOLEAN,
};

export function resolveClientCredentials(options: ClientCredentialsOptions): ResolvedClientCredentials {
  if (!options || typeof options !== 'object')
    throw optionError({
      where: 'clientCredentials',
      option: 'options',
      rule: 'are required: { tokenUrl, clientId, clientSecret }',
    });
  checkOptions('clientCredentials', options, RULES);
  const url = new URL(options.tokenUrl);
  if (isInsecureRemote(url) && !options.allowInsecureHttp) {
    throw optionError({
      where: 'clientCredentials',
      option: 'tokenUrl',
      rule: `uses plain http to ${url.hostname}, which would send the client secret in clear; use https, or pass allowInsecureHttp: true`,
    });
  }
  if (options.tls !== undefined && options.fetch !== undefined)
    throw optionError({
      where: 'clientCredentials',
      option: 'tls',
      rule: 'must not be given with fetch: give either tls or fetch, not both (tls builds its own fetch)',
    });
  const list =
    typeof options.scope === 'string' ? options.scope.split(' ').filter(Boolean) : [...(options.scope ?? [])];
  const second = (seconds: number | undefined, fallback: number) => (seconds ?? fallback) * 1000;

  return {
    tokenUrl: url.toString(),
    shownUrl: `${url.origin}${url.pathname}`,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scope: list.length ? list.join(' ') : undefined,
    authMethod: options.authMethod ?? 'client_secret_basic',
    refreshMarginMs: second(options.refreshMarginSeconds, 60),
    defaultExpiresInMs: second(options.defaultExpiresInSeconds, 300),
    maxExpiresInMs: MAX_EXPIRES_IN_SECONDS * 1000,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    tls: options.tls,
    fetch: options.fetch,
  };
}
