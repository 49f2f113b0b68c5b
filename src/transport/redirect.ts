// The redirect rule, the one for every request the package sends, because it guards where the bearer
// token and the client secret go: a 3xx is followed only for GET and HEAD, only to the same origin
// (scheme, host and port), at most MAX_REDIRECTS times. Anything else comes back to the caller as the
// 3xx itself, so the Authorization header never reaches another host and a body is never sent twice
// (the token request, a POST, is therefore never redirected). Requests ask fetch for
// `redirect: 'manual'`; workerd knows no 'error', so the rule is applied here on every runtime.
import type { FetchLike } from '../fetch.js';

export const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 5;

/**
 * Sends `init` to `url` and follows the redirects the rule allows. `onHop` learns each URL the
 * attempt goes to (the first one included, with its index) before it is sent, so errors name where the
 * call really went, and a caller counting requests may refuse a hop by throwing.
 */
export async function fetchFollowingRedirects(
  fetch: FetchLike,
  url: string,
  init: RequestInit,
  onHop: (url: string, hop: number) => void,
): Promise<Response> {
  for (let hop = 0; ; hop += 1) {
    onHop(url, hop);
    const response = await fetch(url, init);
    const target = redirectTarget(response, url, init.method, hop);
    if (target === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    url = target;
  }
}

/** Where a response sends the call next, or undefined when the rule keeps the response. */
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

/** An answer the rule handed back as a redirect: a 3xx, or a browser-like fetch's opaque redirect (status 0). */
export const isRedirect = (response: Response): boolean =>
  response.type === 'opaqueredirect' || REDIRECTS.has(response.status);

export interface UnfollowedRedirect {
  /** The origin `Location` points to (scheme, host, port only), or undefined when absent or no URL. */
  targetOrigin: string | undefined;
  /** Why it was not followed. */
  reason: 'other-origin' | 'not-a-read' | 'too-many' | 'no-location';
}

/**
 * Why the rule handed back a 3xx that fetchFollowingRedirects returned (from `url`, the last hop), or
 * undefined for an answer that is no redirect. The target is kept only as its origin, so no path or
 * query of another host reaches a report.
 */
export function unfollowedRedirect(response: Response, url: string, method: string): UnfollowedRedirect | undefined {
  if (!REDIRECTS.has(response.status)) return undefined;
  const location = response.headers.get('location');
  let target: URL | undefined;
  try {
    target = location ? new URL(location, url) : undefined;
  } catch {
    target = undefined;
  }
  // An opaque origin ("null": data:, file:, …) is no place to name.
  const targetOrigin = target && target.origin !== 'null' ? target.origin : undefined;
  if (!location || !target) return { targetOrigin, reason: 'no-location' };
  if (method !== 'GET' && method !== 'HEAD') return { targetOrigin, reason: 'not-a-read' };
  if (target.origin !== new URL(url).origin) return { targetOrigin, reason: 'other-origin' };
  return { targetOrigin, reason: 'too-many' };
}
