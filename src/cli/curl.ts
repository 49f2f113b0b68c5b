// The ready `curl` lines the mock and the sandbox print: a request of the contract built by the one
// request builder (src/validation/request.ts) from the generated operation table, so the path, the
// query and the required headers are the spec's, then written as words a POSIX shell reads back as
// they were.
import type { OperationName } from '../generated/operations.js';
import { Secrets } from '../redact.js';
import { type BuiltRequest, buildRequest, type RequestInput } from '../validation/request.js';

/** A word a shell keeps as it is: plain when it has no character the shell reads, else single-quoted. */
export const shellWord = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

/** `curl` with the request's method (GET is curl's own), headers, body and URL. */
export function curlCommand(request: Pick<BuiltRequest, 'method' | 'url' | 'headers' | 'body'>): string {
  const words = ['curl'];
  if (request.method.toUpperCase() !== 'GET') words.push('-X', request.method.toUpperCase());
  for (const [name, value] of Object.entries(request.headers)) words.push('-H', shellWord(`${name}: ${value}`));
  if (request.body !== undefined) words.push('--data', shellWord(request.body));
  words.push(shellWord(request.url));
  return words.join(' ');
}

/** `User-Agent` of the printed lines: the contract requires one on every call that reads keys. */
const DEMO_USER_AGENT = 'demo/1';

/**
 * The curl line for operation `name` at `baseUrl` with `token` (a synthetic one the banner prints on
 * purpose: the mock's placeholder, a sandbox client's), as the builder builds it.
 */
export function tryCurl<N extends OperationName>(
  name: N,
  baseUrl: string,
  token: string,
  query?: RequestInput<N>['query'],
): string {
  const headers = { Authorization: `Bearer ${token}`, 'User-Agent': DEMO_USER_AGENT };
  return curlCommand(buildRequest(name, { baseUrl, query, headers, secrets: Secrets.none }));
}
