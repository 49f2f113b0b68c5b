// What a base URL is: the service's root (a gateway's prefix kept), to which every call adds its
// operation's path. One that already ends with an operation's path, copied from a provider's page or a
// curl line, sends every call to …/list-keys/v2/api/…: a 404 that `verify` would report as drift. Shared by
// the client and the command line's --base-url, so both say it alike.

import { isInsecureRemote } from './loopback.js';

/**
 * Why `url` cannot be a base URL, when its path ends with one of the operations' `paths`: the problem in
 * words and the root to give instead; undefined when it does not.
 */
export function operationPathProblem(url: URL, paths: readonly string[]): string | undefined {
  const path = url.pathname.replace(/\/+$/, '');
  const operation = paths.find((candidate) => path.endsWith(candidate));
  if (operation === undefined) return undefined;
  const root = `${url.origin}${path.slice(0, path.length - operation.length)}`;
  return `ends with the path of an operation (${operation}), which each call adds itself; give the service's root: ${root}`;
}

/** Which rule a base URL broke: the data every surface words with its own option or flag name. */
export type BaseUrlRule = 'required' | 'no-scheme' | 'not-absolute' | 'not-http' | 'credentials' | 'operation-path';

/**
 * THE rule of a base URL, for the client's `baseUrl` and the command line's `--base-url`: given, with a
 * scheme, absolute, http(s), without credentials (fetch refuses them, and a secret in a URL ends up in shell
 * history and proxy logs), not an operation's own URL. `plainHttp` says it is http to a host that is not
 * loopback: each surface refuses that unless its own opt-in (`allowInsecureHttp`, `--allow-insecure-http`).
 */
export function checkBaseUrl(
  value: unknown,
  operationPaths: readonly string[],
): { url: URL; plainHttp: boolean } | { rule: BaseUrlRule; detail?: string } {
  if (typeof value !== 'string' || value === '') return { rule: 'required' };
  // `127.0.0.1:4020` or `api.provider.example` (the scheme left out) is the usual slip: say what to add.
  if (!value.includes('://') && !/^https?:/i.test(value)) return { rule: 'no-scheme' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { rule: 'not-absolute' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { rule: 'not-http', detail: url.protocol };
  if (url.username || url.password) return { rule: 'credentials' };
  const onOperation = operationPathProblem(url, operationPaths);
  if (onOperation !== undefined) return { rule: 'operation-path', detail: onOperation };
  return { url, plainHttp: isInsecureRemote(url) };
}
