// What the client reports about a call: one event per attempt sent, per response, per retry, per
// error, and per token fetched or dropped. The same objects go to the logger and to listeners.
import type { DriftEvent } from '../drift/problems.js';
import type { CallOperation } from '../errors.js';
import type { RateLimitInfo } from './rate-limit.js';
import type { LogMethod } from './levels.js';

/** The fields every event of a call carries (`request`, `response`, `retry`, `error`). */
export interface CallEventFields {
  /** The operationId, e.g. `listPixKeys`, or `raw` for a call through `client.raw`. */
  operation: CallOperation;
  method: string;
  /** The request URL; redacted when the event is emitted (DocumentNumber masked). */
  url: string;
  /** 1 for the first try. */
  attempt: number;
}

export interface RequestEvent extends CallEventFields {
  type: 'request';
  /** Request headers; Authorization and cookies are masked when the event is emitted. */
  headers?: Record<string, string> | undefined;
}

export interface ResponseEvent extends CallEventFields {
  type: 'response';
  status: number;
  /** From sending the attempt to the response headers. */
  durationMs: number;
  requestId?: string | undefined;
  rateLimit?: RateLimitInfo | undefined;
  headers?: Record<string, string> | undefined;
}

export interface RetryEvent extends CallEventFields {
  type: 'retry';
  /** Why: `HTTP 503`, `network ECONNRESET`, `timeout`, `token refused (401)`. */
  reason: string;
  /** How long the client waits before the next attempt. */
  waitMs: number;
  /** From the server's Retry-After, when it sent one. */
  retryAfterMs?: number | undefined;
  status?: number | undefined;
  requestId?: string | undefined;
  rateLimit?: RateLimitInfo | undefined;
}

export interface BaasErrorEvent extends CallEventFields {
  type: 'error';
  /** The error's class, e.g. BaasApiError, and its kind. */
  errorName: string;
  errorKind?: string | undefined;
  /** The error's message; redacted again when the event is emitted. */
  message: string;
  status?: number | undefined;
  code?: string | undefined;
  /** From the first attempt to the failure. */
  durationMs: number;
  requestId?: string | undefined;
  rateLimit?: RateLimitInfo | undefined;
}

export interface TokenEvent {
  type: 'token';
  action: 'fetched' | 'invalidated' | 'failed';
  /** Origin and path of the token endpoint. */
  tokenUrl?: string | undefined;
  durationMs?: number | undefined;
  expiresInSeconds?: number | undefined;
  /** For `failed`: the RFC 6749 error code or the failure. */
  error?: string | undefined;
  message?: string | undefined;
}

/** An answer that departed from the contract (`validateResponses: 'warn'`): pointers and rules, never values. */
export type { DriftEvent };

export type BaasEvent = RequestEvent | ResponseEvent | RetryEvent | BaasErrorEvent | TokenEvent | DriftEvent;
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
      return `baas: ${where(event)} failed after ${event.attempt} attempt${event.attempt === 1 ? '' : 's'}: ${event.errorName}: ${event.message}`;
    case 'token':
      return `baas: token ${event.action}${event.tokenUrl ? ` at ${event.tokenUrl}` : ''}${event.error ? ` (${event.error})` : ''}`;
    case 'drift':
      return `baas: ${event.operationId} ${event.method ?? ''} ${event.url ?? ''} answered HTTP ${event.status} off the contract: ${event.problems.length} problem${event.problems.length === 1 ? '' : 's'} (see problems)`;
  }
}
