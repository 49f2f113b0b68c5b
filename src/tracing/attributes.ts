// What a call's span and duration metric say of it, per the HTTP client semantic conventions: the
// route template of the spec (never the URL with its values), the server, the URL with every query
// value replaced, and `error.type`. Pure functions of redacted input: nothing here sees a token.
import { operations } from '../generated/operations.js';
import { hideQueryValues } from '../redact.js';

interface Route {
  operation: string;
  method: string;
  path: string;
  pattern: RegExp;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** What a path template matches at the end of a URL's path (the base URL may have a prefix): `{name}` is one segment. */
export const routePattern = (path: string): RegExp =>
  new RegExp(`${escapeRegExp(path).replace(/\{[^}]+\}/g, '[^/]+')}$`);

// A raw call is matched to its operation by method and path.
const ROUTES: Route[] = Object.entries(operations).map(([operation, { method, path }]) => ({
  operation,
  method,
  path,
  pattern: routePattern(path),
}));

/** The operationId and the spec's path template of a call; a raw call outside the spec has neither. */
export function routeOf(
  operation: string,
  method: string,
  url: URL | undefined,
): { operation: string; route?: string } {
  const known = ROUTES.find((route) => route.operation === operation);
  if (known) return { operation, route: known.path };
  const path = url?.pathname;
  const found = path ? ROUTES.find((route) => route.method === method && route.pattern.test(path)) : undefined;
  return found ? { operation: found.operation, route: found.path } : { operation };
}

export const parseUrl = (url: string): URL | undefined => (URL.canParse(url) ? new URL(url) : undefined);

/** `server.address` and `server.port` (the scheme's port when the URL names none). */
export function serverOf(url: URL | undefined): { 'server.address'?: string; 'server.port'?: number } {
  if (!url) return {};
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  // The brackets of an IPv6 literal (the only brackets a hostname has) belong to the URL, not to the address.
  return { 'server.address': url.hostname.replace(/[[\]]/g, ''), 'server.port': port };
}

/** The (already redacted) URL with no query value at all: names kept, each value `REDACTED` (src/redact.ts's rule). */
export function fullUrl(url: URL | undefined, redacted: string): string {
  return hideQueryValues(url ?? redacted);
}

/**
 * `error.type`: the status as text for an error answer, else the error's kind (`timeout`,
 * `network`, `response`, …), else the name of what the call was aborted with.
 */
export function errorType(error: unknown, status: number | undefined): string {
  const { kind, name } = (error ?? {}) as { kind?: unknown; name?: unknown };
  const apiStatus = (error as { status?: unknown } | undefined)?.status;
  if (kind === 'api' && typeof apiStatus === 'number') return String(apiStatus);
  if (typeof kind === 'string') return kind;
  if ((status ?? 0) >= 400) return String(status);
  return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) ? name : '_OTHER';
}
