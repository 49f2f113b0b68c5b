// The sandbox's token endpoint: OAuth 2.0 client credentials (RFC 6749 §4.4), so that
// `clientCredentials` and its refresh can be tried without a real authorization server. Clients
// authenticate with HTTP Basic (client_secret_basic, §2.3.1) or with client_id and client_secret in
// the form (client_secret_post); errors are §5.2's JSON. Nothing a request sends is echoed back, the
// form is read up to a small bound, and a secret is compared in constant time.
// SHA-256 from @noble/hashes, bundled (see cursor.ts).
import { sha256 } from '@noble/hashes/sha2.js';
import { equalBytes } from './bytes.js';
import type { SandboxClient } from './data.js';
import type { IssuedTokens } from './issued-tokens.js';
import { SANDBOX_TOKENS } from './limits.js';
import { readBytes, type SandboxRequest } from './request.js';

/** Where the token endpoint answers, on any host. */
export const TOKEN_PATH: string = SANDBOX_TOKENS.path;
/** Largest form read: a client credentials request is a few hundred bytes. */
export const MAX_TOKEN_REQUEST_BYTES = 4 * 1024;
/** Longest `scope` accepted. */
const MAX_SCOPE_LENGTH = 1024;
/** Longest Authorization header decoded. */
export const MAX_AUTHORIZATION_LENGTH = 2048;

export type TokenErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope';

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), separated by single spaces.
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
// RFC 7617: `Basic` (any case), then the base64 of `id:secret`.
const BASIC = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i;
const PARAMETERS = ['grant_type', 'scope', 'client_id', 'client_secret'] as const;
// A 401 names the scheme the client may use (RFC 6749 §5.2, RFC 9110 §11.6.1).
const CHALLENGE = 'Basic realm="baas-pix-contract sandbox", charset="UTF-8"';

// A token answer is never cached (RFC 6749 §5.1), nor are its errors.
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function answer(status: number, body: object, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...NO_STORE, ...headers },
  });
}

/** §5.2's error answer; `description` is fixed text of ours (never request data), within §5.2's characters. */
function tokenError(
  error: TokenErrorCode,
  description: string,
  requestId: string,
  status = error === 'invalid_client' ? 401 : 400,
  headers: Record<string, string> = {},
): Response {
  return answer(
    status,
    { error, error_description: description },
    requestId,
    status === 401 ? { 'www-authenticate': CHALLENGE, ...headers } : headers,
  );
}

/** application/x-www-form-urlencoded decoding of one part of the Basic credentials (RFC 6749 §2.3.1). */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** `{ id, secret }` from `Authorization: Basic …`, or undefined when it is not well formed. */
function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const encoded = BASIC.exec(header)?.[1];
  if (encoded === undefined) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id === undefined || secret === undefined ? undefined : { id, secret };
}

const digest = (text: string) => sha256(new TextEncoder().encode(text));

export interface TokenEndpoint {
  handle(request: SandboxRequest, url: URL, requestId: string): Promise<Response>;
}

export function tokenEndpoint(
  clients: readonly SandboxClient[],
  tokens: IssuedTokens,
  ttlSeconds: number,
): TokenEndpoint {
  const byClientId = new Map(
    clients.map((client, index) => [client.clientId, { index, secret: digest(client.clientSecret) }]),
  );

  /** The client whose id and secret these are, or undefined; the secret compared in constant time. */
  function authenticate(id: string, secret: string): number | undefined {
    const client = byClientId.get(id);
    // Hashed first: compared in a time that depends on the (fixed) digest length, so a secret's length is not learnt.
    const matches = equalBytes(digest(secret), client?.secret ?? digest(''));
    return client !== undefined && matches ? client.index : undefined;
  }

  async function handle(request: SandboxRequest, url: URL, requestId: string): Promise<Response> {
    // RFC 6749 §3.2: POST only.
    if (request.method !== 'POST')
      return tokenError('invalid_request', 'The token endpoint answers POST only.', requestId, 405, { allow: 'POST' });
    // §2.3.1: credentials never go in the URL, where logs and histories keep them.
    if (url.searchParams.has('client_secret')) {
      void request.body?.cancel().catch(() => undefined);
      return tokenError(
        'invalid_request',
        'client_secret must be sent in the request body or in the Authorization header, never in the URL.',
        requestId,
      );
    }
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      void request.body?.cancel().catch(() => undefined);
      return tokenError(
        'invalid_request',
        'The request body must be sent as Content-Type: application/x-www-form-urlencoded.',
        requestId,
      );
    }
    const read = await readBytes(request, MAX_TOKEN_REQUEST_BYTES);
    if (read === 'too large')
      return tokenError(
        'invalid_request',
        `The request body is larger than ${MAX_TOKEN_REQUEST_BYTES} bytes.`,
        requestId,
        413,
      );
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(read ?? new Uint8Array());
    } catch {
      return tokenError('invalid_request', 'The request body is not valid UTF-8.', requestId);
    }
    const form = new URLSearchParams(text);
    // §3.2: a parameter is sent once; one without a value counts as not sent.
    const parameters: Partial<Record<(typeof PARAMETERS)[number], string>> = {};
    for (const name of PARAMETERS) {
      const values = form.getAll(name);
      if (values.length > 1) return tokenError('invalid_request', `${name} must be sent once.`, requestId);
      if (values[0]) parameters[name] = values[0];
    }

    // Client authentication (§2.3.1): exactly one method.
    const authorization = request.headers.get('authorization');
    let clientIndex: number | undefined;
    if (authorization !== null) {
      if (parameters.client_secret !== undefined) {
        return tokenError(
          'invalid_request',
          'The client authenticated twice: use the Authorization header or client_secret in the body, not both.',
          requestId,
        );
      }
      // Bounded before it is decoded: in process, nothing else bounds a header.
      if (authorization.length > MAX_AUTHORIZATION_LENGTH) {
        return tokenError(
          'invalid_client',
          `The Authorization header is longer than ${MAX_AUTHORIZATION_LENGTH} characters.`,
          requestId,
        );
      }
      const credentials = basicCredentials(authorization);
      if (credentials === undefined)
        return tokenError(
          'invalid_client',
          'The Authorization header must be Basic with the form-encoded client_id and client_secret.',
          requestId,
        );
      if (parameters.client_id !== undefined && parameters.client_id !== credentials.id) {
        return tokenError(
          'invalid_request',
          'client_id in the body names another client than the Authorization header.',
          requestId,
        );
      }
      clientIndex = authenticate(credentials.id, credentials.secret);
    } else {
      if (parameters.client_secret === undefined || parameters.client_id === undefined) {
        return tokenError(
          'invalid_client',
          'Client authentication is required: HTTP Basic (client_secret_basic) or client_id and client_secret in the body (client_secret_post).',
          requestId,
        );
      }
      clientIndex = authenticate(parameters.client_id, parameters.client_secret);
    }
    if (clientIndex === undefined)
      return tokenError('invalid_client', 'Unknown client, or wrong client secret.', requestId);

    const grant = parameters.grant_type;
    if (grant === undefined)
      return tokenError('invalid_request', 'grant_type is required: grant_type=client_credentials.', requestId);
    if (grant !== 'client_credentials')
      return tokenError(
        'unsupported_grant_type',
        'This token endpoint issues tokens for grant_type=client_credentials only.',
        requestId,
      );
    const scope = parameters.scope;
    // No scopes are modelled (the contract names none): any well-formed scope is granted as asked.
    if (scope !== undefined && (scope.length > MAX_SCOPE_LENGTH || !SCOPE.test(scope))) {
      return tokenError(
        'invalid_scope',
        `scope must be scope tokens separated by single spaces (RFC 6749 section 3.3), at most ${MAX_SCOPE_LENGTH} characters.`,
        requestId,
      );
    }
    const body = {
      access_token: tokens.issue(clientIndex),
      token_type: 'Bearer',
      expires_in: ttlSeconds,
      ...(scope === undefined ? {} : { scope }),
    };
    return answer(200, body, requestId);
  }

  return { handle };
}
