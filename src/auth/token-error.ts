// The error a token source rejects with. It stands alone for now; once src/errors.ts has its
// `AuthError` (a BaasError of kind 'auth', for token-source failures), this class becomes
// `class TokenError extends AuthError` with the same fields, and `kind` comes from there.
// Every text in it is redacted when it is built: the client secret and tokens never appear.

/** Why no token came: the endpoint said no, could not be reached, took too long, or answered nonsense. */
export type TokenFailure = 'rejected' | 'network' | 'timeout' | 'invalid_response';

export interface TokenErrorInit {
  failure: TokenFailure;
  /** The token endpoint, without query or credentials. */
  tokenUrl: string;
  /** HTTP status of the token endpoint's answer, when there was one. */
  status?: number | undefined;
  /** RFC 6749 §5.2 `error`, e.g. `invalid_client`, `invalid_scope`. */
  error?: string | undefined;
  /** RFC 6749 §5.2 `error_description`, redacted. */
  errorDescription?: string | undefined;
  /** RFC 6749 §5.2 `error_uri`. */
  errorUri?: string | undefined;
  /** What went wrong, already redacted. */
  detail: string;
  cause?: unknown;
}

export class TokenError extends Error {
  readonly kind = 'auth' as const;
  readonly failure: TokenFailure;
  readonly tokenUrl: string;
  readonly status: number | undefined;
  readonly error: string | undefined;
  readonly errorDescription: string | undefined;
  readonly errorUri: string | undefined;

  constructor(init: TokenErrorInit) {
    super(`token request to ${init.tokenUrl} failed: ${init.detail}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'TokenError';
    this.failure = init.failure;
    this.tokenUrl = init.tokenUrl;
    this.status = init.status;
    this.error = init.error;
    this.errorDescription = init.errorDescription;
    this.errorUri = init.errorUri;
  }

  toJSON(): Record<string, unknown> {
    const fields: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) if (value !== undefined) fields[key] = value;
    return fields;
  }
}

export const isTokenError = (value: unknown): value is TokenError => value instanceof TokenError;
