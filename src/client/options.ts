// Checks and defaults for createBaasClient's options, so a misconfigured client fails at creation.
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import type { TokenSource } from './raw.js';
import { retrySettings, type RetryOptions, type RetrySettings } from './retry.js';

export interface BaasClientOptions {
  /** Where the API lives, e.g. `https://sandbox.baas.example`. Plain http only to loopback unless `allowInsecureHttp`. */
  baseUrl: string;
  /** Bearer token, or a (possibly async) function called for each request so tokens can be refreshed. */
  token: TokenSource;
  /** Names the calling application in `User-Agent`. Default `baas-pix-contract/<version>`. */
  userAgent?: string;
  /** Injected fetch, e.g. for tests or a proxy agent. Default the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Time for one attempt, headers and body. Default 10 000 ms. */
  timeoutMs?: number;
  /** Retries of network errors, timeouts, 429, 502, 503 and 504. `false` turns them off. */
  retry?: RetryOptions | boolean;
  /** Pre-flight validation of parameters and body against the contract. Default true. */
  validate?: boolean;
  /** Allow plain http to a host other than loopback. Never do this with a real token. */
  allowInsecureHttp?: boolean;
}

export interface ResolvedOptions {
  baseUrl: string;
  token: TokenSource;
  userAgent: string;
  fetch: (request: Request) => Promise<Response>;
  timeoutMs: number;
  retry: RetrySettings | false;
  validate: boolean;
}

const LOOPBACK = /^(localhost|127(\.[0-9]{1,3}){3}|\[::1\])$/i;
export const DEFAULT_TIMEOUT_MS = 10_000;

export function resolveOptions(options: BaasClientOptions): ResolvedOptions {
  if (typeof options?.baseUrl !== 'string') throw new TypeError('createBaasClient: baseUrl is required, e.g. "https://sandbox.baas.example"');
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError('createBaasClient: baseUrl must be an absolute http(s) URL, e.g. "https://sandbox.baas.example"');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`createBaasClient: baseUrl must use https (or http to loopback), not ${url.protocol}`);
  }
  if (url.username || url.password) throw new TypeError('createBaasClient: baseUrl must not carry credentials; use the token option');
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !options.allowInsecureHttp) {
    throw new TypeError(
      `createBaasClient: baseUrl uses plain http to ${url.hostname}, which would send the bearer token in clear; use https, or pass allowInsecureHttp: true`,
    );
  }
  if (options.token === undefined || options.token === '') throw new TypeError('createBaasClient: token is required (a string or a function returning one)');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new TypeError('createBaasClient: timeoutMs must be a positive number of milliseconds');
  const userAgent = options.userAgent ?? `${PACKAGE_NAME}/${PACKAGE_VERSION}`;
  if (!userAgent.trim()) throw new TypeError('createBaasClient: userAgent must not be empty');

  return {
    baseUrl: url.toString().replace(/\/+$/, ''),
    token: options.token,
    userAgent,
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    timeoutMs,
    retry: retrySettings(options.retry),
    validate: options.validate ?? true,
  };
}
