// The error a clientCredentials token source rejects with: a BaasAuthError (kind 'auth'), so every
// token failure is one error kind, whether the client meets it or a program calls the source itself.
// Every text in it is redacted when it is built: the client secret and tokens never appear, and its
// `cause` (a network or timeout error) is a redacted copy.
import { BaasAuthError } from '../errors.js';
import type { Secrets } from '../redact.js';

/** Why no token came: the endpoint said no, could not be reached, took too long, or answered nonsense. */
export type TokenFailure = 'rejected' | 'network' | 'timeout' | 'invalid_response';

/**
 * What a BaasTokenError is built from: `clientCredentials` builds one for each failed token request, and a
 * test double of a token source can build the same. Every text is redacted again by the constructor.
 */
export interface BaasTokenErrorInit {
  /** Why no token came. */
  failure: TokenFailure;
  /** The token endpoint; shown without its user name and password. */
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
  /** Already redacted. */
  cause?: unknown;
  /**
   * Through which every field is built, message included: the client secret and id, its Basic value,
   * the tokens the source issued and the one this answer carried (`Secrets.of([...])` for a test
   * double). Never stored.
   */
  secrets: Secrets;
}

/**
 * A token request of `clientCredentials` failed: a `BaasAuthError` (`kind: 'auth'`) saying why (`failure`) and
 * what the endpoint said (RFC 6749 §5.2), every text masked. The client rejects a call with it as it comes.
 */
export class BaasTokenError extends BaasAuthError {
  /** Why no token came: `rejected`, `network`, `timeout` or `invalid_response`. */
  readonly failure: TokenFailure;
  /** The token endpoint, without user name and password. */
  readonly tokenUrl: string;
  /** The HTTP status of the token endpoint's answer, when there was one. */
  readonly status: number | undefined;
  /** RFC 6749 §5.2 `error` (`invalid_client`, `invalid_scope`, …), masked. */
  readonly error: string | undefined;
  /** RFC 6749 §5.2 `error_description`, masked. */
  readonly errorDescription: string | undefined;
  /** RFC 6749 §5.2 `error_uri`, masked. */
  readonly errorUri: string | undefined;

  constructor(init: BaasTokenErrorInit) {
    const secrets = init.secrets;
    // The constructor is public (a test double builds one): a URL given with credentials loses them here.
    const tokenUrl = secrets.url(init.tokenUrl);
    super(
      `token request to ${tokenUrl} failed: ${init.detail}`,
      { secrets },
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    // What the endpoint sent is quoted again here, whoever built the init, through the secrets: a hostile
    // endpoint may put a CPF, the client secret or the token in any of its fields, error_uri included.
    const text = (value: string | undefined) => (value === undefined ? undefined : secrets.quote(value));
    this.failure = init.failure;
    this.tokenUrl = tokenUrl;
    this.status = init.status;
    this.error = text(init.error);
    this.errorDescription = text(init.errorDescription);
    this.errorUri = init.errorUri === undefined ? undefined : text(secrets.url(init.errorUri));
  }
}

export const isTokenError = (value: unknown): value is BaasTokenError => value instanceof BaasTokenError;
