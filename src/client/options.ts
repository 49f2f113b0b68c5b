// Checks and defaults for createBaasClient's options, so a misconfigured client fails at creation.
import type { DriftEvent } from '../call-events.js';
import { listPixKeysHeaders } from '../generated/validators.js';
import { validateListPixKeysQuery } from '../validation/index.js';
import type { FetchLike } from '../fetch.js';
import { runtimeFetch } from '../transport/runtime-fetch.js';
import { type BaseUrlRule, checkBaseUrl } from '../base-url.js';
import { operations } from '../generated/operations.js';
import { LOGGING_RULES, resolveLogging, type Logger, type LogLevel, type ResolvedLogging } from '../logging/levels.js';
import { lazyTlsFetch } from '../tls/lazy.js';
import { TLS_HOMES, type TlsOptions } from '../tls/options.js';
import type { ClientCredentialsOptions } from '../auth/options.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import {
  AS_GIVEN,
  BOOLEAN,
  TLS_SHAPE_RULE,
  checkOptions,
  checkOptionValues,
  isFunction,
  isRecord,
  goIn,
  must,
  optionError,
  type OptionHomes,
  type OptionRule,
  type OptionRules,
  within,
} from '../option-rules.js';
import { byteLimitProblem, DEFAULT_MAX_RESPONSE_BYTES } from '../body-limit.js';
import type { AttemptPolicy } from '../transport/pipeline.js';
import { MAX_TIMER_MS, RETRY_HOMES, retrySettings, type RetryOptions, type RetrySettings } from './retry.js';
import type { TokenSource } from './token.js';
import type { PageOptions } from './pagination.js';
import { tokenTextProblem } from '../token-text.js';

/** Options of one call, beside its parameters: `listPixKeys({ limit, signal, timeoutMs })`. */
export interface CallOptions {
  /** Aborting it rejects the call with the signal's reason (an `AbortSignal.timeout()` too: a DOMException named TimeoutError). */
  signal?: AbortSignal | undefined;
  /** Time for each attempt of this call, headers and body; a BaasTimeoutError when it runs out. Default: the client's. */
  timeoutMs?: number | undefined;
  /** Retry settings for this call, merged over the client's; `false` sends it once. */
  retry?: RetryOptions | false | undefined;
  /** The largest answer body this call reads, in bytes. Default: the client's. */
  maxResponseBytes?: number | undefined;
  /** Extra request headers for this call. They cannot replace `Authorization`. */
  headers?: Record<string, string> | undefined;
  /**
   * Hooks the call's retry loop runs around each attempt, retries included: a wait before it goes
   * (pacing), what it came to, a signal that stops the retries. `updateMany` and `exportKeys` pace
   * their requests with one; most callers need none.
   */
  policies?: readonly AttemptPolicy[] | undefined;
}

/** The options of `createBaasClient`: `baseUrl` and `token`, and how calls are sent, checked and observed. */
export interface BaasClientOptions {
  /** Where the API lives, e.g. `https://sandbox.baas.example`. Plain http only to loopback unless `allowInsecureHttp`. */
  baseUrl: string;
  /**
   * Bearer token, or a (possibly async) function called for each request so tokens can be refreshed. A
   * token that cannot be one (missing, blank, the whole header value, a line break) is a BaasOptionError here.
   */
  token: TokenSource;
  /** Names the calling application in `User-Agent`. Default `baas-pix-contract/<version>`. */
  userAgent?: string;
  /** Injected fetch, called as `fetch(url, init)` (see FetchLike), e.g. undici's own. Default the global fetch. */
  fetch?: FetchLike;
  /** Time for one attempt, headers and body. Default 10 000 ms; at most 2^31-1 ms (a timer holds no more). */
  timeoutMs?: number;
  /**
   * The largest answer body read, in bytes, for every call (typed and `raw`), success or error. Counted
   * while the body streams: past it the read stops and the call rejects with a `BaasResponseError` naming
   * the limit (`limitBytes`), not retried. Default 10 MiB (10 485 760).
   */
  maxResponseBytes?: number;
  /** Retries of network errors, timeouts, 429, 502, 503 and 504. `false` turns them off. */
  retry?: RetryOptions | boolean;
  /** Pre-flight validation of parameters and body against the contract. Default true. */
  validate?: boolean;
  /** Allow plain http to a host other than loopback. Never do this with a real token. */
  allowInsecureHttp?: boolean;
  /**
   * A client certificate (`{ cert, key, passphrase? }` PEM or `{ pfx, passphrase? }` PKCS#12) and/or a
   * private authority (`ca`) for the API calls. Needs the optional peer `undici`, loaded on the first
   * call. Not together with `fetch`. Call `client.close()` to release its connections.
   */
  tls?: TlsOptions;
  /** Where log entries go: any object with debug, info, warn and error taking (message, object). Default console when `logLevel` is set. */
  logger?: Logger;
  /** `off`, `error`, `warn`, `info` or `debug` (one entry per attempt, response, retry and error). Default `warn` with a logger, else `off`. */
  logLevel?: LogLevel;
  /**
   * Check every answer of a typed operation against the contract (its documented statuses, media
   * types, required headers and schemas). `'throw'`: an answer that departs from it is a
   * `BaasResponseError` whose `problems` list each JSON pointer and rule (never the value). `'warn'`:
   * the call goes on as usual and a drift event goes to the client's observers and `onDrift`.
   * Default `'off'`, which loads and costs nothing; the validators load on the first answer checked.
   */
  validateResponses?: ResponseValidation;
  /**
   * Hears each drift event (with `validateResponses` on). A throwing hook never fails the call.
   * @deprecated The same events come to `client.on('drift', listener)`, the one way to hear a client's
   * events; `onDrift` stays for 0.2 code and goes in 2.0.
   */
  onDrift?: (event: DriftEvent) => void;
}

/** What the client does with an answer that departs from the contract: nothing, a `drift` event, or a `BaasResponseError`. */
export type ResponseValidation = 'off' | 'warn' | 'throw';

export interface ResolvedOptions {
  baseUrl: string;
  token: TokenSource;
  userAgent: string;
  fetch: FetchLike;
  timeoutMs: number;
  retry: RetrySettings | false;
  maxResponseBytes: number;
  validate: boolean;
  /** Set when `logger` or `logLevel` was given. */
  logging: ResolvedLogging | undefined;
  /** Releases what the client holds open (the TLS agent). */
  close: () => Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** The client's words for each rule of a base URL (src/base-url.ts), after `baseUrl`. */
const BASE_URL_WORDS: Readonly<Record<BaseUrlRule, (detail: string | undefined) => string>> = {
  required: () => 'is required, e.g. "https://sandbox.baas.example"',
  'no-scheme': () =>
    'has no scheme: start it with https:// (or http:// for a server on this machine), e.g. "https://sandbox.baas.example"',
  'not-absolute': () => 'must be an absolute http(s) URL, e.g. "https://sandbox.baas.example"',
  'not-http': (protocol) => `must use https (or http to loopback), not ${protocol}`,
  credentials: () => 'must not carry credentials; use the token option',
  'operation-path': (detail) => `${detail}`,
};

const OPERATION_PATHS = Object.values(operations).map((operation) => operation.path);
const baseUrlOf = (value: unknown) => checkBaseUrl(value, OPERATION_PATHS);

// A timer armed for longer than MAX_TIMER_MS fires at once (Node warns), so no timeout may ask for it.
const TIMEOUT_RULE = must(
  (ms) => typeof ms === 'number' && ms > 0 && ms <= MAX_TIMER_MS,
  `must be a positive number of milliseconds, at most ${MAX_TIMER_MS}`,
);
const BYTE_LIMIT_RULE: OptionRule = { check: byteLimitProblem, error: TypeError };

// An AbortSignal of any realm (a test runner's, a polyfill's): what the call reads of it.
const isSignal = (value: unknown) =>
  isRecord(value) && typeof value.aborted === 'boolean' && isFunction(value.addEventListener);

/** `signal`'s rule, for a call and for `pixKeys()`, which hands it to each page's call. */
const SIGNAL_RULE = must(isSignal, 'must be an AbortSignal, e.g. signal: AbortSignal.timeout(5000)');

/** Each call option's rule, once: tsc fails here when CallOptions gains or loses one. */
export const CALL_OPTION_RULES: OptionRules<CallOptions> = {
  signal: SIGNAL_RULE,
  timeoutMs: TIMEOUT_RULE,
  // Its settings' own rules: retrySettings (retry.ts), over the client's.
  retry: must(
    (retry) => retry === false || isRecord(retry),
    "must be false or retry settings, e.g. retry: { maxAttempts: 5 } (leave it out for the client's)",
  ),
  maxResponseBytes: BYTE_LIMIT_RULE,
  headers: {
    check: (headers) => {
      if (!isRecord(headers))
        return 'must be an object of header names to text, e.g. headers: { "X-Request-Id": "r-1" }';
      const wrong = Object.keys(headers).find((name) => typeof headers[name] !== 'string');
      return wrong === undefined ? undefined : { at: `.${wrong}`, rule: 'must be a string' };
    },
    error: TypeError,
  },
  policies: {
    check: (policies) => {
      if (!Array.isArray(policies)) return 'must be a list of attempt policies, e.g. policies: [{ beforeAttempt }]';
      const wrong = policies.findIndex((policy) => !isRecord(policy));
      return wrong < 0 ? undefined : { at: `[${wrong}]`, rule: 'must be an attempt policy (an object of hooks)' };
    },
    error: TypeError,
  },
};

/**
 * The names a call's options are mistaken for, beside its declaration's (CALL_OPTION_RULES): other
 * libraries' names for one (the Azure SDK's per-operation `abortSignal`), and each retry setting, which
 * goes in `retry` (openai-node's per-request `maxRetries` among them). Refused with the one meant.
 */
export const CALL_OPTION_MISTAKES = { aliases: { abortSignal: 'signal' }, homes: RETRY_HOMES } as const;

/** `pixKeys()`'s options: the call options of each page, the page size (the contract's rule) and a page limit. */
export const PAGE_OPTION_RULES: OptionRules<PageOptions> = {
  ...CALL_OPTION_RULES,
  limit: {
    check: (limit) =>
      typeof limit === 'number'
        ? validateListPixKeysQuery({ limit })[0]?.message
        : 'must be a number of keys per page, e.g. limit: 100',
    error: RangeError,
  },
  maxPages: within(
    (pages) => Number.isInteger(pages) && (pages as number) >= 1,
    'must be a whole number of pages of at least 1, e.g. maxPages: 10 (leave it out for every page)',
  ),
};

// The token's form, said with the right one: a token given as an option is checked here, at creation;
// a token function's answer, before each attempt (tokenProblem, token.ts, a BaasAuthError then).
const TOKEN_EXAMPLE = 'e.g. token: process.env.BAAS_TOKEN, or token: clientCredentials({ … })';
const TOKEN_RULE: OptionRule = {
  check: (token) => {
    if (token === undefined || token === '')
      return `is required: the bearer token, a string or a function returning one, ${TOKEN_EXAMPLE}`;
    if (typeof token === 'function') return undefined;
    if (typeof token !== 'string')
      return `must be a string or a function returning one, not a ${token === null ? 'null' : typeof token}, ${TOKEN_EXAMPLE}`;
    if (token.trim() === '') return `must not be blank: give the token itself, ${TOKEN_EXAMPLE}`;
    const text = tokenTextProblem(token);
    return text === undefined ? undefined : `${text}, e.g. token: "sbx_abc123"`;
  },
  error: TypeError,
  required: true,
};

// Each option's rule, once: tsc fails here when BaasClientOptions gains or loses one. Where an option's
// rule involves another option, or has a module of its own, the declaration says where it is.
const RULES: OptionRules<BaasClientOptions> = {
  baseUrl: {
    check: (value) => {
      const checked = baseUrlOf(value);
      return 'rule' in checked ? BASE_URL_WORDS[checked.rule](checked.detail) : undefined;
    },
    error: TypeError,
    required: true,
  },
  token: TOKEN_RULE,
  // The contract's rule for the header (its pattern and length, from the spec): checked here, once, so that
  // a wrong one is a clear error at creation instead of a 422 on every listPixKeys call.
  userAgent: {
    check: (value) =>
      typeof value !== 'string' || !value.trim()
        ? 'must not be empty'
        : listPixKeysHeaders({ 'User-Agent': value })
          ? undefined
          : "must be printable ASCII (space to '~', not starting with a space), at most 256 characters, as the contract's User-Agent header requires; remove tabs, line breaks and accented letters",
    error: TypeError,
  },
  // Below too, with tls: not both.
  fetch: must(isFunction, 'must be a function called as fetch(url, init), e.g. fetch: globalThis.fetch'),
  timeoutMs: TIMEOUT_RULE,
  maxResponseBytes: BYTE_LIMIT_RULE,
  retry: must(
    (retry) => typeof retry === 'boolean' || isRecord(retry),
    'must be true, false or retry settings, e.g. retry: { maxAttempts: 5 }',
  ),
  validate: BOOLEAN,
  // Below too, with baseUrl.
  allowInsecureHttp: BOOLEAN,
  // Its members' own rules: lazyTlsFetch (src/tls/).
  tls: TLS_SHAPE_RULE,
  // The logging options' own declaration (src/logging/levels.ts), shared with the event log.
  logger: LOGGING_RULES.logger,
  logLevel: LOGGING_RULES.logLevel,
  validateResponses: must(
    (mode) => mode === 'off' || mode === 'warn' || mode === 'throw',
    'must be off, warn or throw',
  ),
  onDrift: must(
    isFunction,
    "must be a function (event), e.g. onDrift: (event) => console.warn(event); or use client.on('drift', …)",
  ),
};

// clientCredentials' own options, which the client does not have: tsc fails here when that options type
// gains or loses one (its declaration is in src/auth/, whose values the client does not load).
const CLIENT_CREDENTIALS_ONLY: OptionRules<Omit<ClientCredentialsOptions, keyof BaasClientOptions>> = {
  tokenUrl: AS_GIVEN,
  clientId: AS_GIVEN,
  clientSecret: AS_GIVEN,
  scope: AS_GIVEN,
  authMethod: AS_GIVEN,
  refreshMarginSeconds: AS_GIVEN,
  defaultExpiresInSeconds: AS_GIVEN,
};

// Names that are not the client's options but go in one of them, said where: a certificate given
// beside `tls` would otherwise be ignored and never sent, client credentials reported as "token is required".
const HOMES: OptionHomes = {
  ...TLS_HOMES,
  ...goIn(CLIENT_CREDENTIALS_ONLY, 'token: clientCredentials({ tokenUrl, clientId, clientSecret })'),
};

export function resolveOptions(options: BaasClientOptions): ResolvedOptions {
  checkOptions('createBaasClient', typeof options === 'object' && options !== null ? options : ({} as never), RULES, {
    homes: HOMES,
  });
  const { url, plainHttp } = baseUrlOf(options.baseUrl) as { url: URL; plainHttp: boolean };
  if (plainHttp && !options.allowInsecureHttp) {
    throw optionError({
      where: 'createBaasClient',
      option: 'baseUrl',
      rule: `uses plain http to ${url.hostname}, which would send the bearer token in clear; use https, or pass allowInsecureHttp: true`,
    });
  }
  if (options.tls !== undefined && options.fetch !== undefined) {
    throw optionError({
      where: 'createBaasClient',
      option: 'tls',
      rule: 'must not be given with fetch: give either tls or fetch, not both (tls makes its own fetch on undici; for a fetch of your own, give it the certificate)',
    });
  }
  const tlsFetch =
    options.tls === undefined
      ? undefined
      : lazyTlsFetch(options.tls, 'tls', { where: 'createBaasClient', option: 'baseUrl', url });
  const logging = options.logger === undefined && options.logLevel === undefined ? undefined : resolveLogging(options);

  return {
    baseUrl: url.toString().replace(/\/+$/, ''),
    token: options.token,
    userAgent: options.userAgent ?? `${PACKAGE_NAME}/${PACKAGE_VERSION}`,
    fetch: tlsFetch ?? options.fetch ?? runtimeFetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: retrySettings(options.retry, { where: 'createBaasClient', path: 'retry' }),
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    validate: options.validate ?? true,
    logging,
    close: async () => tlsFetch?.close(),
  };
}

/** The timeout, retry and body-size settings of one call: its own options over the client's. */
export function callSettings(
  settings: ResolvedOptions,
  options: CallOptions,
  where: string,
): { timeoutMs: number; retry: RetrySettings | false; maxResponseBytes: number } {
  checkOptionValues(where, options, CALL_OPTION_RULES);
  const retry =
    options.retry === undefined
      ? settings.retry
      : options.retry === false
        ? false
        : retrySettings({ ...(settings.retry || {}), ...options.retry }, { where, path: 'retry' });
  return {
    timeoutMs: options.timeoutMs ?? settings.timeoutMs,
    retry,
    maxResponseBytes: options.maxResponseBytes ?? settings.maxResponseBytes,
  };
}
