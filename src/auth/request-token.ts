// The token request itself (RFC 6749 §4.4.2, §5.1, §5.2): one POST to the token endpoint, sent as one
// attempt of the package's transport (src/transport/: its timer, its redirect rule, its byte limit, its
// reading of a failure), its answer checked; every failure a BaasTokenError naming the token URL.
import { shownBytes } from '../body-limit.js';
import type { FetchLike } from '../fetch.js';
import { Secrets } from '../redact.js';
import { incurableTls, tlsFailure } from '../tls/failure.js';
import { Attempt } from '../transport/attempt.js';
import { failureOf } from '../transport/failure.js';
import { NO_RETRY, sendRequest } from '../transport/pipeline.js';
import { isRedirect } from '../transport/redirect.js';
import type { ResolvedClientCredentials } from './options.js';
import { BaasTokenError, type BaasTokenErrorInit } from './token-error.js';

// A 404 or 405 with no RFC 6749 body: nothing answers as a token endpoint at tokenUrl. The usual slip is
// the service's root (or the API's own path) given as tokenUrl, so the message says where a sandbox's is.
const NOT_A_TOKEN_ENDPOINT = new Set([404, 405]);
const NOT_A_TOKEN_ENDPOINT_HINT =
  ": nothing answers as a token endpoint there; check tokenUrl (a sandbox's is its URL with /oauth/token)";

// A 2xx that holds no token is most often not the token endpoint at all: a sign-in page, the
// provider's portal or documentation (HTML), or another JSON API. The message says what came and where to look.
const NOT_A_TOKEN_ANSWER_HINT =
  'a token endpoint answers JSON with an access_token (RFC 6749 §5.1); check that tokenUrl is the token endpoint (often …/oauth/token or …/oauth2/token), not a sign-in page, a portal or the API itself';
/** A media type as headers write it, without parameters; anything else is not shown. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;
const MEMBER_NAMES_SHOWN = 5;

/** What a 2xx without a token held, in a few words: never a value, only the media type or the members' names. */
function notATokenAnswer(body: unknown, text: string, response: Response, known: Secrets): string {
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const shownType = MEDIA_TYPE.test(type) ? type : undefined;
  if (body === undefined) {
    if (text.trim() === '') return 'an empty body, not JSON';
    if (shownType === 'text/html' || /^\s*</.test(text)) return 'an HTML page, not JSON';
    return `a body that is not JSON${shownType ? ` (${shownType})` : ''}`;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return `JSON without access_token: ${Array.isArray(body) ? 'a list' : body === null ? 'null' : `a ${typeof body}`}, not an object`;
  const given = (body as Record<string, unknown>).access_token;
  if (given !== undefined)
    return `JSON without access_token as text: it is ${given === '' ? 'empty' : given === null ? 'null' : `a ${Array.isArray(given) ? 'list' : typeof given}`}`;
  const names = Object.keys(body);
  if (names.length === 0) return 'JSON without access_token: an empty object';
  const shown = names.slice(0, MEMBER_NAMES_SHOWN).map((name) => JSON.stringify(known.quote(name, 40)));
  const more = names.length > MEMBER_NAMES_SHOWN ? `, … (${names.length} in all)` : '';
  return `JSON without access_token: its members are ${shown.join(', ')}${more}`;
}

export interface CachedToken {
  value: string;
  /** As the endpoint said, or the default. */
  expiresInSeconds: number;
  /** When to fetch a new one (expiry minus the margin), in `Date.now()` milliseconds. */
  refreshAt: number;
}

const CONTROL = /[\u0000-\u001f\u007f]/;
/**
 * The longest access_token kept (4 KiB). It travels in the Authorization header of every call, and
 * servers refuse header lines of about 8 KiB; a longer one is no token a provider issues, only a way to
 * make every request huge. Refused, so nothing is sent with it.
 */
export const MAX_ACCESS_TOKEN_CHARS = 4096;

/**
 * The redacted copy of a failed token request's cause, which keeps what a TLS failure says of itself (its
 * code, kind, reason and `incurable`: no key material, src/tls/failure.ts), so a reader of the token error
 * (the command line) tells a local certificate mistake from an endpoint that is down, from fields.
 */
function keptCause(cause: unknown, known: Secrets): Error {
  const copy = known.cause(cause);
  const tls = tlsFailure(cause);
  if (tls === undefined) return copy;
  return Object.assign(copy, {
    code: tls.code,
    kind: tls.kind,
    reason: known.text(tls.reason),
    incurable: incurableTls(tls),
  });
}

export async function requestToken(
  settings: ResolvedClientCredentials,
  fetch: FetchLike,
  secrets: () => string[],
  basic: string,
): Promise<CachedToken> {
  // The cause (a network or timeout error) is kept as a redacted copy.
  // The access_token of the answer at hand is not issued yet, and is masked all the same.
  let answered: string[] = [];
  const known = Secrets.of(() => [...secrets(), ...answered]);
  const fail = (init: Omit<BaasTokenErrorInit, 'tokenUrl' | 'secrets'>) =>
    new BaasTokenError({
      ...init,
      tokenUrl: settings.shownUrl,
      secrets: known,
      ...(init.cause === undefined ? {} : { cause: keptCause(init.cause, known) }),
    });
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (settings.scope) form.set('scope', settings.scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (settings.authMethod === 'client_secret_basic') {
    headers.authorization = `Basic ${basic}`;
  } else {
    form.set('client_id', settings.clientId);
    form.set('client_secret', settings.clientSecret);
  }
  const startedAt = Date.now();
  // One timer for the answer and its body; the transport's byte limit counts the body while it streams.
  const attempt = new Attempt({
    fetch,
    url: settings.tokenUrl,
    init: { method: 'POST', headers, body: form.toString() },
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: settings.maxResponseBytes,
  });
  let response: Response;
  let text: string;
  try {
    // Through the package's one request loop, as every request is; a POST of the secret is sent once.
    ({ response } = await sendRequest({ open: () => attempt, retry: NO_RETRY }));
    // The transport's redirect rule follows no POST: the secret goes to the token URL and nowhere
    // else, so a redirect comes back as itself (or, from a browser-like fetch, as an opaque answer of
    // status 0) and is refused here.
    if (isRedirect(response)) {
      await response.body?.cancel().catch(() => undefined);
      const status = response.status === 0 ? undefined : response.status;
      // The same kind as redirect: 'error' gave (a network error in the Fetch standard); Location not shown.
      const shown = status === undefined ? '' : `HTTP ${status}, `;
      throw fail({
        failure: 'network',
        status,
        detail: `${shown}a redirect, not followed: a token request is never redirected (it carries the client secret); set tokenUrl to the URL the endpoint answers at itself (https:// where http:// was given, a trailing / added or dropped: \`curl -si -X POST <tokenUrl>\` shows the Location)`,
      });
    }
    // Counted while it streams: an endless answer stops at the limit, whatever its status.
    text = await attempt.readText(response);
  } catch (error) {
    if (error instanceof BaasTokenError) throw error;
    // What the transport makes of the failure; the token request has no caller's signal to abort it.
    const failure = failureOf(error, attempt);
    if (failure.kind === 'too-large') {
      throw fail({
        failure: 'invalid_response',
        status: failure.status,
        detail: `HTTP ${failure.status} with a body larger than maxResponseBytes (${shownBytes(failure.limitBytes)})`,
      });
    }
    if (failure.kind === 'timeout') {
      throw fail({ failure: 'timeout', detail: `no answer within ${failure.timeoutMs} ms`, cause: error });
    }
    // Network errors name hosts and codes, not request contents; the message is masked all the same.
    const reason = known.quote(failure.kind === 'network' ? failure.message : String(error));
    throw fail({ failure: 'network', detail: reason, cause: error });
  } finally {
    attempt.end();
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (an empty body included): no fields.
  }
  // A JSON value that is not an object (a list, a string, a number) has none of the fields either.
  const fields = (body ?? {}) as Record<string, unknown>;
  const str = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
  const answeredToken = fields.access_token;
  // One too long to be a token is refused below, and is no secret to look for in every text.
  if (typeof answeredToken === 'string' && answeredToken.length > 0 && answeredToken.length <= MAX_ACCESS_TOKEN_CHARS)
    answered = [answeredToken];

  if (!response.ok) {
    const error = str(fields.error);
    const description = str(fields.error_description);
    const shown = description === undefined ? undefined : known.quote(description, 500);
    // Bounded and masked with the secrets by BaasTokenError, as a URL.
    const errorUri = str(fields.error_uri);
    const code = error ? known.quote(error, 100) : undefined;
    throw fail({
      failure: 'rejected',
      status: response.status,
      error: code,
      errorDescription: shown,
      errorUri,
      detail: code
        ? `HTTP ${response.status} ${code}${shown ? `: ${shown}` : ''}`
        : `HTTP ${response.status} without an RFC 6749 error body${NOT_A_TOKEN_ENDPOINT.has(response.status) ? NOT_A_TOKEN_ENDPOINT_HINT : ''}`,
    });
  }

  // The body of a 200 holds the token: nothing of it goes into an error (only what it is: its media
  // type, and for JSON the names of its members).
  const token = fields.access_token;
  if (typeof token !== 'string' || token.length === 0) {
    throw fail({
      failure: 'invalid_response',
      status: response.status,
      detail: `HTTP ${response.status} without an access_token (${notATokenAnswer(body, text, response, known)}): ${NOT_A_TOKEN_ANSWER_HINT}`,
    });
  }
  if (token.length > MAX_ACCESS_TOKEN_CHARS)
    throw fail({
      failure: 'invalid_response',
      status: response.status,
      detail: `access_token is longer than ${MAX_ACCESS_TOKEN_CHARS} characters, too long for a request header; the token was not kept`,
    });
  if (CONTROL.test(token))
    throw fail({
      failure: 'invalid_response',
      status: response.status,
      detail: 'access_token contains control characters',
    });
  const type = fields.token_type;
  if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
    throw fail({
      failure: 'invalid_response',
      status: response.status,
      // Quoted through the masking: an endpoint may answer with the token (or the secret) as its type.
      detail: `token_type is ${typeof type === 'string' ? JSON.stringify(known.quote(type, 30)) : typeof type}, not Bearer`,
    });
  }
  // Absent (or null): the default lifetime. Sent: a positive number, or a numeric string (some servers
  // send one); anything else is refused rather than guessed at, so the token is neither cached nor
  // used. A lifetime past the maximum is cut to it, so no answer keeps a token forever.
  const given = fields.expires_in;
  let lifetimeMs = settings.defaultExpiresInMs;
  if (given !== undefined && given !== null) {
    const expiresIn = typeof given === 'number' || typeof given === 'string' ? Number(given) : Number.NaN;
    if (!(expiresIn > 0 && Number.isFinite(expiresIn))) {
      throw fail({
        failure: 'invalid_response',
        status: response.status,
        detail: 'expires_in must be a positive, finite number of seconds (RFC 6749 §5.1); the token was not kept',
      });
    }
    lifetimeMs = Math.min(expiresIn * 1000, settings.maxExpiresInMs);
  }
  const margin = Math.min(settings.refreshMarginMs, lifetimeMs / 2);
  // From when the request started: the server's clock started counting no earlier.
  return { value: token, expiresInSeconds: lifetimeMs / 1000, refreshAt: startedAt + lifetimeMs - margin };
}
