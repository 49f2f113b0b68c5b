// The redirect policy, on its own because it guards where the bearer token goes: a 3xx is followed
// only for GET and HEAD, only to the same origin (scheme, host and port), at most MAX_REDIRECTS
// times. Anything else comes back to the caller as the 3xx itself, so the Authorization header never
// reaches another host and a body is never sent twice.
import type { FetchLike } from '../fetch.js';

export const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 5;

/**
 * Sends `init` to `url` and follows the redirects the policy allows. `onHop` learns each URL an
 * attempt goes to (the first one included), so errors name where the call really went.
 */
export async function fetchFollowingRedirects(
  fetch: FetchLike,
  url: string,
  init: RequestInit,
  onHop: (url: string) => void,
): Promise<Response> {
  for (let hop = 0; ; hop += 1) {
    onHop(url);
    const response = await fetch(url, init);
    const target = redirectTarget(response, url, init.method, hop);
    if (target === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    url = target;
  }
}

/** Where a response sends the call next, or undefined when the policy keeps the response. */
function redirectTarget(response: Response, url: string, method: string | undefined, hop: number): string | undefined {
  if (!REDIRECTS.has(response.status)) return undefined;
  const location = response.headers.get('location');
  if (!location || hop >= MAX_REDIRECTS || (method !== 'GET' && method !== 'HEAD')) return undefined;
  let target: URL;
  try {
    target = new URL(location, url);
  } catch {
    return undefined;
  }
  return target.origin === new URL(url).origin ? target.href : undefined;
}
