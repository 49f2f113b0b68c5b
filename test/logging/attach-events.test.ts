// How the client's call events become logged events (src/logging/client-events.ts), driven through
// the observer seam directly: the fields each event carries, what stands in for a missing one, the
// client's secrets as they are when the event is emitted, and the token source's events.
import { describe, expect, it } from 'vitest';
import type { CallEvent, Observed } from '../../src/call-events.js';
import { attachEvents } from '../../src/logging/client-events.js';
import type { BaasEvent, TokenEvent } from '../../src/logging/events.js';
import type { Logger } from '../../src/logging/levels.js';
import { Secrets } from '../../src/redact.js';

const TOKEN = 'tok-0123456789abcdef';
const base: CallEvent = {
  operation: 'listPixKeys',
  method: 'GET',
  url: 'https://api.baas.example/keys?limit=5',
  attempt: 2,
  durationMs: 12,
};

function state(token: unknown = TOKEN): Observed & { held: string[] } {
  const held: string[] = [];
  return { token, secrets: Secrets.of(() => held), held };
}

function recorder() {
  const entries: { level: string; message: string; fields: object }[] = [];
  const at = (level: string) => (message: string, fields: object) => entries.push({ level, message, fields });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, entries };
}

/** Attaches at debug and collects what the logger gets. */
function attached(token?: unknown) {
  const s = state(token);
  const { logger, entries } = recorder();
  attachEvents(s, { logger, level: 'debug' });
  const fields = () => entries.map((e) => e.fields as BaasEvent);
  return { s, observer: s.observer!, entries, fields };
}

describe('attachEvents', () => {
  it('an attempt is a request event with the request headers', () => {
    const { observer, fields } = attached();
    observer.attempt!({ ...base, headers: { 'User-Agent': 'acme/1' } });
    expect(fields()).toStrictEqual([
      {
        type: 'request',
        operation: 'listPixKeys',
        method: 'GET',
        url: 'https://api.baas.example/keys?limit=5',
        attempt: 2,
        headers: { 'user-agent': 'acme/1' },
      },
    ]);
  });

  it('a response carries status, duration, request id, rate limit and the response headers as a plain object', () => {
    const { observer, fields } = attached();
    const responseHeaders = new Headers({
      'X-Request-Id': 'req-1',
      'X-RateLimit-Remaining': '3',
      'Content-Type': 'application/json',
    });
    observer.response!({ ...base, status: 200, requestId: 'req-1', responseHeaders });
    expect(fields()).toStrictEqual([
      {
        type: 'response',
        operation: 'listPixKeys',
        method: 'GET',
        url: 'https://api.baas.example/keys?limit=5',
        attempt: 2,
        status: 200,
        durationMs: 12,
        requestId: 'req-1',
        rateLimit: { source: 'separate-fields', remaining: 3 },
        headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '3', 'x-request-id': 'req-1' },
      },
    ]);
  });

  it('a response without status or headers: status 0, and no rate limit or headers', () => {
    const { observer, fields } = attached();
    observer.response!(base);
    expect(fields()).toStrictEqual([
      {
        type: 'response',
        operation: 'listPixKeys',
        method: 'GET',
        url: 'https://api.baas.example/keys?limit=5',
        attempt: 2,
        status: 0,
        durationMs: 12,
      },
    ]);
  });

  it('a retry carries why and how long; without them, "retry" and 0 ms', () => {
    const { observer, fields, entries } = attached();
    observer.retry!({ ...base, reason: 'HTTP 503', waitMs: 250, status: 503, requestId: 'req-2' });
    observer.retry!(base);
    expect(fields()).toStrictEqual([
      {
        type: 'retry',
        operation: 'listPixKeys',
        method: 'GET',
        url: 'https://api.baas.example/keys?limit=5',
        attempt: 2,
        reason: 'HTTP 503',
        waitMs: 250,
        status: 503,
        requestId: 'req-2',
      },
      {
        type: 'retry',
        operation: 'listPixKeys',
        method: 'GET',
        url: 'https://api.baas.example/keys?limit=5',
        attempt: 2,
        reason: 'retry',
        waitMs: 0,
      },
    ]);
    expect(entries.map((e) => e.level)).toEqual(['info', 'info']);
  });

  it("an error carries the error's name, kind, message, status, code and rate limit", () => {
    const { observer, fields } = attached();
    const error = Object.assign(new Error('HTTP 429 slow down'), {
      name: 'BaasApiError',
      kind: 'api',
      status: 429,
      code: 'RATE',
      rateLimit: { source: 'ietf', remaining: 0 },
    });
    observer.error!({ ...base, error, requestId: 'req-3' });
    expect(fields()).toStrictEqual([
      {
        type: 'error',
        operation: 'listPixKeys',
        method: 'GET',
        url: 'https://api.baas.example/keys?limit=5',
        attempt: 2,
        errorName: 'BaasApiError',
        errorKind: 'api',
        message: 'HTTP 429 slow down',
        status: 429,
        code: 'RATE',
        durationMs: 12,
        requestId: 'req-3',
        rateLimit: { source: 'ietf', remaining: 0 },
      },
    ]);
  });

  it('an error that is not an Error: "Error" and the value as text; fields of the wrong type are left out', () => {
    const { observer, fields, entries } = attached();
    observer.error!({ ...base, error: 'socket hang up' });
    observer.error!({ ...base, error: { name: 7, kind: 1, message: 2, status: '500', code: 3 } });
    observer.error!(base);
    const common = {
      type: 'error',
      operation: 'listPixKeys',
      method: 'GET',
      url: 'https://api.baas.example/keys?limit=5',
      attempt: 2,
      errorName: 'Error',
      durationMs: 12,
    };
    expect(fields()).toStrictEqual([
      { ...common, message: 'socket hang up' },
      { ...common, message: '[object Object]' },
      { ...common, message: 'undefined' },
    ]);
    expect(entries[0]!.message).toBe(
      'baas: listPixKeys GET https://api.baas.example/keys?limit=5 failed after 2 attempts: Error: socket hang up',
    );
  });

  it('a drift event goes through as it is, at warn', () => {
    const { observer, entries } = attached();
    const drift = {
      type: 'drift' as const,
      operationId: 'listPixKeys',
      status: 200,
      problems: [{ part: 'body' as const, pointer: '/data', rule: 'is required' }],
    };
    observer.drift!(drift);
    expect(entries).toEqual([
      {
        level: 'warn',
        message: 'baas: listPixKeys   answered HTTP 200 off the contract: 1 problem (see problems)',
        fields: drift,
      },
    ]);
  });

  it('masks the secrets the client holds when the event is emitted, not when it attached', () => {
    const { s, observer, entries } = attached();
    s.held.push(TOKEN);
    observer.retry!({ ...base, reason: `token ${TOKEN} refused` });
    expect(entries[0]!.message).toContain('failed (token [REDACTED] refused)');
  });

  it('builds no event that nobody wants: at warn, attempts, responses and retries reach no logger', () => {
    const s = state();
    const { logger, entries } = recorder();
    const log = attachEvents(s, { logger, level: 'warn' });
    s.observer!.attempt!(base);
    s.observer!.response!({ ...base, status: 200 });
    s.observer!.retry!(base);
    expect(entries).toEqual([]);
    // A listener makes its type wanted again.
    const heard: string[] = [];
    log.on('retry', (e) => heard.push(e.reason));
    s.observer!.retry!({ ...base, reason: 'timeout' });
    expect(heard).toEqual(['timeout']);
    expect(entries).toEqual([]);
  });

  it('without logging, only listeners hear events', () => {
    const s = state();
    const log = attachEvents(s, undefined);
    const heard: BaasEvent[] = [];
    log.on('error', (e) => heard.push(e));
    s.observer!.error!({ ...base, error: new Error('boom') });
    s.observer!.drift!({ type: 'drift', operationId: 'listPixKeys', status: 200, problems: [] });
    expect(heard.map((e) => e.type)).toEqual(['error']);
    expect(log.wants('drift')).toBe(false);
  });

  it('listens to a token source that can be observed, and to no other kind', () => {
    let told: ((event: TokenEvent) => void) | undefined;
    const source = Object.assign(() => Promise.resolve(TOKEN), {
      observe: (listener: (event: TokenEvent) => void) => (told = listener),
    });
    const { fields } = attached(source);
    told!({ type: 'token', action: 'fetched', tokenUrl: 'https://auth.example/token', durationMs: 5 });
    expect(fields()).toStrictEqual([
      { type: 'token', action: 'fetched', tokenUrl: 'https://auth.example/token', durationMs: 5 },
    ]);
    // A plain function, or a fixed token, has nothing to observe: attaching still works.
    expect(() => attached(() => Promise.resolve(TOKEN))).not.toThrow();
    expect(() => attached(Object.assign(() => Promise.resolve(TOKEN), { observe: 'no' }))).not.toThrow();
  });
});
