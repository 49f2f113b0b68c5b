// `--base-url` of every command that calls the API (verify, update-many, export-keys): the one rule of a
// base URL (src/base-url.ts, the client's too) in the command line's words, and the plain-http opt-in
// (`--allow-insecure-http`) said on every output it let through.
import { type BaseUrlRule, checkBaseUrl } from '../../base-url.js';
import { readBundledSpec } from '../../shipped-files.js';
import { UsageError } from '../../usage-error.js';
import { ENV } from './credentials.js';

/** A command that calls the API run without `--base-url`: what it is, and the two forms it takes. */
export const BASE_URL_REQUIRED =
  "--base-url is required: the service's root, e.g. --base-url https://api.provider.example (a sandbox on this machine: --base-url http://127.0.0.1:4020)";

/** The command line's words for each rule of a base URL, after `--base-url`. */
const BASE_URL_WORDS: Readonly<Record<BaseUrlRule, (detail: string | undefined) => string>> = {
  required: () => BASE_URL_REQUIRED.slice('--base-url '.length),
  'no-scheme': () =>
    'has no scheme: start it with https:// (or http:// for a sandbox on this machine, e.g. http://127.0.0.1:4020)',
  'not-absolute': () => 'must be an absolute http(s) URL, e.g. https://api.provider.example or http://127.0.0.1:4020',
  'not-http': () => 'must be an absolute http(s) URL, e.g. https://api.provider.example or http://127.0.0.1:4020',
  credentials: () => `must not carry credentials (user:password@); use --token or ${ENV.token}`,
  'operation-path': (detail) => `${detail}`,
};

/**
 * Checks `--base-url`: required, absolute http(s), no credentials in it, not an operation's URL, and plain
 * http only to loopback unless `allowInsecureHttp`. `insecure` when it is plain http let through by that
 * flag (to be said on every output).
 */
export function baseUrlFlag(
  baseUrl: string | undefined,
  allowInsecureHttp: boolean,
): { baseUrl: string; insecure: boolean } {
  const checked = checkBaseUrl(baseUrl, Object.keys((readBundledSpec() as { paths: object }).paths));
  if ('rule' in checked) throw new UsageError(`--base-url ${BASE_URL_WORDS[checked.rule](checked.detail)}`);
  if (!checked.plainHttp) return { baseUrl: baseUrl!, insecure: false };
  if (!allowInsecureHttp) throw new UsageError(insecureHttpMessage('--base-url'));
  return { baseUrl: baseUrl!, insecure: true };
}

/** The refusal of plain http to a host that is not loopback, naming the flag (never the URL). */
export function insecureHttpMessage(flag: string): string {
  return `${flag} uses plain http to a host that is not loopback, which would send credentials in clear; use https, or pass --allow-insecure-http`;
}

/** The lines that say a run was let through on plain http (stderr, the table and the report). */
export function insecureHttpWarnings(options: { insecureHttp?: readonly string[] | undefined }): string[] {
  return (options.insecureHttp ?? []).map(
    (flag) =>
      `warning: --allow-insecure-http: ${flag} is plain http to a host that is not loopback; credentials travel in clear`,
  );
}
