// What a base URL is: the service's root (a gateway's prefix kept), to which every call adds its
// operation's path. One that already ends with an operation's path, copied from a provider's page or a
// curl line, sends every call to …/list-keys/v2/api/…: a 404 that `verify` would report as drift. Shared by
// the client and the command line's --base-url, so both say it alike.

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
