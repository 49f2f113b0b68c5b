// The error family every client call rejects with. Every field is redacted here, in the constructors,
// whoever builds the error: message (and so the stack), URL, request id, problem details (member names
// too), codes, content type, drift pointers. So message, toString(), JSON.stringify, toJSON and
// util.inspect are all safe to log, whatever the provider sent. No error is built without the
// `Secrets` of the client at hand (`ErrorContext.secrets` is required): the masking rules are
// src/redact.ts's and go through that one object; each piece of provider text is also bounded, and the
// message is one line (its control characters escaped), so a provider's title cannot forge a log line.
import type { DriftProblem } from './call-events.js';
import type { RateLimitInfo } from './logging/rate-limit.js';
import type { Problem } from './types.js';
import type { ValidationIssue } from './validation/index.js';
import { MAX_PROVIDER_TEXT, type Secrets } from './redact.js';
import { boundedCopy } from './json-bounds.js';

import type { OperationName } from './generated/operations.js';

/** A `BaasError`'s `kind`, one per class: a `switch` over it needs no `instanceof`. */
export type BaasErrorKind = 'api' | 'validation' | 'timeout' | 'network' | 'response' | 'auth';

/**
 * What a call was for: an operationId of the spec (`OperationName`), or `raw` for a call through
 * `client.raw`. A name of its own, so that `OperationName` means the spec's operations and nothing else.
 */
export type CallOperation = OperationName | 'raw';

/** What every error knows about the call it ends; built in one place, the call (src/client/call.ts). */
export interface ErrorContext {
  /** The operation the call was for (`listPixKeys`, or `raw`). */
  operation?: CallOperation | undefined;
  /** The HTTP method of the call. */
  method?: string | undefined;
  /** Already redacted. */
  url?: string | undefined;
  /** Attempts sent, 0 when nothing was sent. */
  attempts?: number | undefined;
  /** The last `X-Request-Id` (or problem correlationId) the server sent during the call. */
  requestId?: string | undefined;
  /**
   * The client's secrets (tokens, the client secret and id, the call's DocumentNumber), through which
   * every field of the error is built; never stored. `Secrets.none` where none is known yet.
   */
  secrets: Secrets;
}

const redactOptional = (value: string | undefined, secrets: Secrets): string | undefined =>
  value === undefined ? undefined : secrets.bounded(value);

// A message holds our words, the URL and at most a few pieces of provider text, each bounded.
const MAX_MESSAGE = 4 * MAX_PROVIDER_TEXT;

/**
 * The base of every error a call of the package rejects with (`instanceof BaasError`). Every field is masked
 * (tokens, CPFs, the call's secrets), so message, `String`, `JSON.stringify`, `toJSON` and `util.inspect` are
 * safe to log. `name` is the class's own (`'BaasTimeoutError'`), never a `DOMException` name.
 */
export abstract class BaasError extends Error {
  /** Which failure this is, one per class (`api`, `validation`, `timeout`, `network`, `response`, `auth`). */
  abstract readonly kind: BaasErrorKind;
  /** The operation the call was for, when it was one (`listPixKeys`, or `raw`). */
  readonly operation: CallOperation | undefined;
  /** The HTTP method of the call, when a request was built. */
  readonly method: string | undefined;
  /** The request URL with DocumentNumber masked. */
  readonly url: string | undefined;
  /** Attempts sent before the call ended; 0 when nothing was sent (validation, a refused token). */
  readonly attempts: number;
  /** The last request id the server sent during the call (`X-Request-Id`, or a problem's correlationId). */
  readonly requestId: string | undefined;

  constructor(message: string, context: ErrorContext, options?: { cause?: unknown }) {
    const secrets = context.secrets;
    const url = context.url === undefined ? undefined : secrets.url(context.url);
    const where = context.method && url ? ` (${context.method} ${url})` : '';
    const text = `${context.operation ? `${context.operation}: ` : ''}${message}${where}`;
    super(secrets.line(text, MAX_MESSAGE), options);
    // Set as an own property, so the class name survives a bundler renaming the class.
    this.name = new.target.name;
    this.operation = context.operation;
    this.method = context.method;
    this.url = url;
    this.attempts = context.attempts ?? 0;
    this.requestId = redactOptional(context.requestId, secrets);
  }

  /** Every field that is set, with `name` and `message`: what `JSON.stringify` writes, masked. */
  toJSON(): Record<string, unknown> {
    const fields: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) if (value !== undefined) fields[key] = value;
    return fields;
  }
}

/** The server answered with an HTTP error status. */
export class BaasApiError extends BaasError {
  /** Always `api`. */
  readonly kind = 'api' as const;
  /** The HTTP status the server answered with. */
  readonly status: number;
  /** The parsed problem details (also built from the upstream `{status:"ERROR",error:{…}}` envelope or a text body). */
  readonly problem: Problem | undefined;
  /** The upstream provider's error code, e.g. `CIE999`, when it sent its own envelope. */
  readonly code: string | undefined;
  /** From `Retry-After`, when the server sent one. */
  readonly retryAfterMs: number | undefined;
  /** On a 429: what the rate-limit header fields say (`RateLimit`/`RateLimit-Policy` or `X-RateLimit-*`), when sent. */
  readonly rateLimit: RateLimitInfo | undefined;

  /** `context.requestId` is this response's `X-Request-Id`, or the problem's correlationId. */
  constructor(
    init: {
      status: number;
      problem?: Problem | undefined;
      code?: string | undefined;
      retryAfterMs?: number | undefined;
      rateLimit?: RateLimitInfo | undefined;
    },
    context: ErrorContext,
  ) {
    // Only text is shown: a title that is an object or an array nested without end is not joined.
    const secrets = context.secrets;
    const summary = [init.problem?.title, init.problem?.detail]
      .filter((part): part is string => typeof part === 'string' && part !== '')
      .map((part) => secrets.bounded(part))
      .join(': ');
    super(`HTTP ${init.status}${summary ? ` ${summary}` : ''}`, context);
    this.status = init.status;
    // Bounded before it is masked: a 422 of 300,000 members keeps its first MAX_KEPT_MEMBERS (src/json-bounds.ts).
    this.problem = init.problem === undefined ? undefined : secrets.json(boundedCopy(init.problem));
    this.code = redactOptional(init.code, secrets);
    this.retryAfterMs = init.retryAfterMs;
    this.rateLimit = init.rateLimit === undefined ? undefined : secrets.json(init.rateLimit);
  }
}

/** Input broke the contract; nothing was sent. */
export class BaasValidationError extends BaasError {
  /** Always `validation`. */
  readonly kind = 'validation' as const;
  /** Each field that broke a rule, with the rule and an example of the right form (never the value). */
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[], context: ErrorContext) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super(`invalid input, ${count}, nothing was sent: ${issues.map((i) => i.message).join('; ')}`, {
      operation: context.operation,
      attempts: 0,
      secrets: context.secrets,
    });
    // A path names a member of the caller's input, and a member name may be a CPF.
    this.issues = context.secrets.json(issues);
  }
}

/** No complete answer within `timeoutMs`, on the last attempt. */
export class BaasTimeoutError extends BaasError {
  /** Always `timeout`. */
  readonly kind = 'timeout' as const;
  /** The `timeoutMs` the last attempt went past. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number, context: ErrorContext) {
    super(`no complete response within ${timeoutMs} ms (attempt ${context.attempts ?? 0})`, context);
    this.timeoutMs = timeoutMs;
  }
}

/** The connection failed: refused, reset, DNS, TLS. */
export class BaasNetworkError extends BaasError {
  /** Always `network`. */
  readonly kind = 'network' as const;
  /** The system error code, e.g. ECONNREFUSED, ECONNRESET, ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED, when there is one. */
  readonly code: string | undefined;
  /** What failed, in words, when the failure names itself (a TLS failure: no, an unknown or an expired client certificate). */
  readonly reason: string | undefined;

  constructor(code: string | undefined, context: ErrorContext, reason?: string) {
    const attempts = context.attempts ?? 0;
    super(
      `network failure${code ? ` (${code})` : ''}${reason ? `: ${reason},` : ''} after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
      context,
    );
    const secrets = context.secrets;
    this.code = redactOptional(code, secrets);
    this.reason = redactOptional(reason, secrets);
  }
}

/** The server answered, but not as the contract says: invalid JSON, an HTML page, a redirect elsewhere. */
export class BaasResponseError extends BaasError {
  /** Always `response`. */
  readonly kind = 'response' as const;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The answer's `Content-Type`, when it sent one. */
  readonly contentType: string | undefined;
  /** The start of the body, redacted and truncated. */
  readonly bodySnippet: string | undefined;
  /** Where the answer left the contract (`validateResponses: 'throw'`, a repeated cursor): JSON pointer and rule, never the value. */
  readonly problems: readonly DriftProblem[] | undefined;
  /** The `maxResponseBytes` the body went past, when that is what ended the call. */
  readonly limitBytes: number | undefined;

  constructor(
    reason: string,
    init: {
      status: number;
      contentType?: string | undefined;
      bodySnippet?: string | undefined;
      problems?: readonly DriftProblem[] | undefined;
      limitBytes?: number | undefined;
    },
    context: ErrorContext,
  ) {
    super(`${reason} (HTTP ${init.status}${init.contentType ? `, ${init.contentType}` : ''})`, context);
    const secrets = context.secrets;
    this.status = init.status;
    this.contentType = redactOptional(init.contentType, secrets);
    this.bodySnippet = redactOptional(init.bodySnippet, secrets);
    this.problems = init.problems === undefined ? undefined : secrets.json(init.problems);
    this.limitBytes = init.limitBytes;
  }
}

/**
 * The token source failed (it threw or rejected: `cause` is its error, redacted; for clientCredentials
 * a BaasTokenError, itself a BaasAuthError, with the RFC 6749 `error`) or gave something that is not a usable
 * token (empty, not a string, control characters). Nothing was sent with it.
 */
export class BaasAuthError extends BaasError {
  /** Always `auth`. */
  readonly kind = 'auth' as const;
}

export const isBaasError = (value: unknown): value is BaasError => value instanceof BaasError;
