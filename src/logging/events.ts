// What the client reports about a call: one event per attempt sent, per response, per retry, per
// error, and per token fetched or dropped. The same objects go to the logger and to listeners.
import type { DriftEvent } from '../call-events.js';
import type { CallOperation } from '../errors.js';
import type { RateLimitInfo } from './rate-limit.js';
import type { LogMethod } from './levels.js';

/** The fields every event of a call carries (`request`, `response`, `retry`, `error`). */
export interface CallEventFields {
  /** The operationId, e.g. `listPixKeys`, or `raw` for a call through `client.raw`. */
  operation: CallOperation;
  /** The HTTP method, upper case (`GET`, `PUT`). */
  method: string;
  /** The request URL; redacted when the event is emitted (DocumentNumber masked). */
  url: string;
  /** 1 for the first try. */
  attempt: number;
}

/** An attempt is about to be sent (logged at `debug`). */
export interface RequestEvent extends CallEventFields {
  /** The event's kind, what `client.on('request', …)` selects. */
  type: 'request';
  /** Request headers; Authorization and cookies are masked when the event is emitted. */
  headers?: Record<string, string> | undefined;
}

/** An attempt was answered, whatever the status (logged at `debug`). */
export interface ResponseEvent extends CallEventFields {
  /** The event's kind, what `client.on('response', …)` selects. */
  type: 'response';
  /** The HTTP status of the answer. */
  status: number;
  /** From sending the attempt to the response headers. */
  durationMs: number;
  /** The answer's `X-Request-Id`, when it sent one. */
  requestId?: string | undefined;
  /** What the answer's rate-limit header fields say, when it sent them. */
  rateLimit?: RateLimitInfo | undefined;
  /** Response headers, masked when the event is emitted. */
  headers?: Record<string, string> | undefined;
}

/** An attempt failed and another one follows after `waitMs` (logged at `info`). */
export interface RetryEvent extends CallEventFields {
  /** The event's kind, what `client.on('retry', …)` selects. */
  type: 'retry';
  /** Why: `HTTP 503`, `network ECONNRESET`, `timeout`, `token refused (401)`. */
  reason: string;
  /** How long the client waits before the next attempt. */
  waitMs: number;
  /** From the server's Retry-After, when it sent one. */
  retryAfterMs?: number | undefined;
  /** The HTTP status of the failed attempt, when it was answered. */
  status?: number | undefined;
  /** The failed attempt's `X-Request-Id`, when it sent one. */
  requestId?: string | undefined;
  /** What the failed attempt's rate-limit header fields say, when it sent them. */
  rateLimit?: RateLimitInfo | undefined;
}

/** A call ended with an error, after its last attempt (logged at `error`). The error itself is what the call rejects with. */
export interface BaasErrorEvent extends CallEventFields {
  /** The event's kind, what `client.on('error', …)` selects. */
  type: 'error';
  /** The error's class, e.g. BaasApiError, and its kind. */
  errorName: string;
  /** The error's `kind` (`api`, `timeout`, …), when it is a `BaasError`. */
  errorKind?: string | undefined;
  /** The error's message; redacted again when the event is emitted. */
  message: string;
  /** The HTTP status, for a `BaasApiError`. */
  status?: number | undefined;
  /** The provider's error code (`BaasApiError.code`) or the network error code (`BaasNetworkError.code`). */
  code?: string | undefined;
  /** From the first attempt to the failure. */
  durationMs: number;
  /** The last request id the server sent during the call. */
  requestId?: string | undefined;
  /** What the last answer's rate-limit header fields say, when it sent them. */
  rateLimit?: RateLimitInfo | undefined;
}

/** A token source fetched a token, dropped one (a 401 answered it) or failed to fetch one; never the token itself. */
export interface TokenEvent {
  /** The event's kind, what `client.on('token', …)` selects. */
  type: 'token';
  /** What happened to the token. */
  action: 'fetched' | 'invalidated' | 'failed';
  /** Origin and path of the token endpoint. */
  tokenUrl?: string | undefined;
  /** How long the token request took. */
  durationMs?: number | undefined;
  /** For `fetched`: the token's lifetime, as the server said it (`expires_in`) or the default. */
  expiresInSeconds?: number | undefined;
  /** For `failed`: the RFC 6749 error code or the failure. */
  error?: string | undefined;
  /** For `failed`: what went wrong, masked. */
  message?: string | undefined;
}

/** An answer that departed from the contract (`validateResponses: 'warn'`): pointers and rules, never values. */
export type { DriftEvent };

/** Every event the client emits, told apart by `type`; the argument of a `client.on` listener. */
export type BaasEvent = RequestEvent | ResponseEvent | RetryEvent | BaasErrorEvent | TokenEvent | DriftEvent;
/** The `type` of an event: what `client.on(type, listener)` listens to. */
export type BaasEventType = BaasEvent['type'];

/** The level an event is logged at. */
export function levelOf(event: BaasEvent): LogMethod {
  switch (event.type) {
    case 'request':
    case 'response':
      return 'debug';
    case 'retry':
      return 'info';
    case 'error':
      return 'error';
    case 'token':
      return event.action === 'failed' ? 'warn' : 'debug';
    case 'drift':
      return 'warn';
  }
}

const where = (e: CallEventFields) => `${e.operation} ${e.method} ${e.url}`;

/** The log line's message; the object beside it carries the fields. */
export function messageOf(event: BaasEvent): string {
  switch (event.type) {
    case 'request':
      return `baas: ${where(event)} attempt ${event.attempt} sent`;
    case 'response':
      return `baas: ${where(event)} attempt ${event.attempt} answered HTTP ${event.status} in ${Math.round(event.durationMs)} ms${event.requestId ? ` (request id ${event.requestId})` : ''}`;
    case 'retry':
      return `baas: ${where(event)} attempt ${event.attempt} failed (${event.reason}); retrying in ${Math.round(event.waitMs)} ms`;
    case 'error':
      // Attempt 0: it failed before anything was sent (no token, invalid input), and says so.
      return `baas: ${where(event)} failed ${event.attempt === 0 ? 'before any attempt was sent' : `after ${event.attempt} attempt${event.attempt === 1 ? '' : 's'}`}: ${event.errorName}: ${event.message}`;
    case 'token':
      return `baas: token ${event.action}${event.tokenUrl ? ` at ${event.tokenUrl}` : ''}${event.error ? ` (${event.error})` : ''}`;
    case 'drift':
      return `baas: ${event.operationId} ${event.method ?? ''} ${event.url ?? ''} answered HTTP ${event.status} off the contract: ${event.problems.length} problem${event.problems.length === 1 ? '' : 's'} (see problems)`;
  }
}
