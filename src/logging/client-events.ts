// What the client reports, built from the call owner's observer seam (src/call-events.ts): each
// CallEvent becomes the event of src/logging/events.ts, redacted once more with every secret the
// client knows, logged at its level and handed to listeners. Attached when a logger, a log level or
// a listener is set (src/client/events.ts).
import type { CallEvent, Observed } from '../call-events.js';
import { eventLog, type EventLog } from './event-log.js';
import type { CallEventFields, TokenEvent } from './events.js';
import type { ResolvedLogging } from './levels.js';
import { parseRateLimit, type RateLimitInfo } from './rate-limit.js';

const fields = (e: CallEvent): CallEventFields => ({
  operation: e.operation,
  method: e.method,
  url: e.url,
  attempt: e.attempt,
});

const plain = (headers: Headers): Record<string, string> => {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
};

/** Sets the client's observer (and the token source's, when it has one); returns the event log. */
export function attachEvents(state: Observed, logging: ResolvedLogging | undefined): EventLog {
  const log = eventLog(logging, state.secrets);
  state.observer = {
    attempt(e, carried) {
      if (log.wants('request')) log.emit({ type: 'request', ...fields(e), headers: e.headers }, carried);
    },
    response(e, carried) {
      if (!log.wants('response')) return;
      const headers = e.responseHeaders;
      log.emit(
        {
          type: 'response',
          ...fields(e),
          status: e.status ?? 0,
          durationMs: e.durationMs,
          requestId: e.requestId,
          rateLimit: headers ? parseRateLimit(headers) : undefined,
          headers: headers ? plain(headers) : undefined,
        },
        carried,
      );
    },
    retry(e, carried) {
      if (log.wants('retry'))
        log.emit(
          {
            type: 'retry',
            ...fields(e),
            reason: e.reason ?? 'retry',
            waitMs: e.waitMs ?? 0,
            status: e.status,
            requestId: e.requestId,
          },
          carried,
        );
    },
    error(e, carried) {
      if (!log.wants('error')) return;
      const error = (e.error ?? {}) as {
        name?: unknown;
        kind?: unknown;
        message?: unknown;
        status?: unknown;
        code?: unknown;
        rateLimit?: RateLimitInfo;
      };
      const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
      log.emit(
        {
          type: 'error',
          ...fields(e),
          errorName: text(error.name) ?? 'Error',
          errorKind: text(error.kind),
          message: text(error.message) ?? String(e.error),
          status: typeof error.status === 'number' ? error.status : undefined,
          code: text(error.code),
          durationMs: e.durationMs,
          requestId: e.requestId,
          rateLimit: error.rateLimit,
        },
        carried,
      );
    },
    drift(e) {
      if (log.wants('drift')) log.emit(e);
    },
  };
  // clientCredentials tells of each token fetched, dropped or failed.
  // A fixed token (a string) has no observe either.
  const { observe } = state.token as { observe?: (listener: (event: TokenEvent) => void) => unknown };
  if (typeof observe === 'function') observe((event) => log.emit(event));
  return log;
}
