// What an event looks like once redacted: header names lower-cased, each credential header masked
// whole (its scheme kept), URLs without userinfo and with the CPF masked, every other string masked
// as text, undefined fields dropped, and the copy bounded in depth.
import { describe, expect, it } from 'vitest';
import { createEventLog, redactEvent } from '../../src/logging/event-log.js';
import { type BaasEvent } from '../../src/logging/events.js';
import { type Logger } from '../../src/logging/levels.js';
import { Secrets } from '../../src/redact.js';

const CPF = '52998224725';
const TOKEN = 'tok-0123456789abcdef';
const call = { operation: 'listPixKeys' as const, method: 'GET', url: 'https://api.baas.example/keys', attempt: 1 };

const request = (headers: Record<string, string>): BaasEvent => ({ type: 'request', ...call, headers });

describe('redactEvent: headers', () => {
  it('masks every credential header whole, keeping a Bearer or Basic scheme as sent, and lower-cases names', () => {
    const safe = redactEvent(
      request({
        Authorization: 'Basic YWNtZTpzM2NyM3Q=',
        'Proxy-Authorization': 'bearer abc.def.ghi',
        Cookie: 'session=abc',
        'Set-Cookie': 'id=abc; HttpOnly',
        'X-API-Key': 'k-123',
        'X-Client-Secret': 's3cr3t',
        'X-Trace': 'trace-1',
      }),
      Secrets.none,
    ) as Extract<BaasEvent, { type: 'request' }>;
    expect(safe.headers).toStrictEqual({
      authorization: 'Basic [REDACTED]',
      'proxy-authorization': 'bearer [REDACTED]',
      cookie: '[REDACTED]',
      'set-cookie': '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'x-client-secret': '[REDACTED]',
      'x-trace': 'trace-1',
    });
  });

  it('keeps only a scheme that opens the value and is followed by a space', () => {
    const safe = redactEvent(
      request({ authorization: 'Token Bearer abc', 'x-api-key': 'Bearerabc' }),
      Secrets.none,
    ) as Extract<BaasEvent, { type: 'request' }>;
    expect(safe.headers).toStrictEqual({ authorization: '[REDACTED]', 'x-api-key': '[REDACTED]' });
  });

  it('masks known secrets and CPFs in any other header', () => {
    const safe = redactEvent(request({ 'X-Echo': `${TOKEN} for ${CPF}` }), Secrets.of([TOKEN])) as Extract<
      BaasEvent,
      { type: 'request' }
    >;
    expect(safe.headers).toStrictEqual({ 'x-echo': '[REDACTED] for *********25' });
  });

  it('shows a header value that is not a string as text', () => {
    const safe = redactEvent(request({ 'Content-Length': 42 as unknown as string }), Secrets.none) as Extract<
      BaasEvent,
      { type: 'request' }
    >;
    expect(safe.headers).toStrictEqual({ 'content-length': '42' });
  });

  it('a list under headers is a list of header records', () => {
    const event = { ...request({}), headers: [{ Cookie: 'a=1', Accept: 'application/json' }] } as unknown as BaasEvent;
    expect((redactEvent(event, Secrets.none) as unknown as { headers: unknown }).headers).toStrictEqual([
      { cookie: '[REDACTED]', accept: 'application/json' },
    ]);
  });
});

describe('redactEvent: URLs and text', () => {
  it('url and tokenUrl lose their userinfo and the DocumentNumber, wherever they are', () => {
    const token = redactEvent(
      { type: 'token', action: 'fetched', tokenUrl: 'https://acme:pa55word@auth.example/token' },
      Secrets.none,
    );
    expect(token).toStrictEqual({ type: 'token', action: 'fetched', tokenUrl: 'https://auth.example/token' });
    const response = redactEvent(
      {
        type: 'response',
        ...call,
        url: `https://u:p@api.baas.example/x?DocumentNumber=${CPF}`,
        status: 200,
        durationMs: 1,
      },
      Secrets.none,
    );
    expect(response.url).toBe('https://api.baas.example/x?DocumentNumber=*********25');
    // Any other field is text: the userinfo of a URL in a message stays, its CPF does not.
    const failed = redactEvent(
      { type: 'token', action: 'failed', message: `https://acme:pa55word@auth.example/token?DocumentNumber=${CPF}` },
      Secrets.none,
    );
    expect(failed.message).toBe('https://acme:pa55word@auth.example/token?DocumentNumber=*********25');
  });

  it('redacts strings inside lists and nested objects, keeps numbers and booleans, and drops undefined and null', () => {
    const event = {
      type: 'drift',
      operationId: 'listPixKeys',
      status: 200,
      method: undefined,
      url: null,
      requestId: 'req-1',
      problems: [
        { part: 'body', pointer: `/data/${CPF}`, rule: 'is required', extra: { ok: true, count: 0, gone: undefined } },
      ],
    } as unknown as BaasEvent;
    expect(redactEvent(event, Secrets.none)).toStrictEqual({
      type: 'drift',
      operationId: 'listPixKeys',
      status: 200,
      url: undefined,
      requestId: 'req-1',
      problems: [{ part: 'body', pointer: '/data/*********25', rule: 'is required', extra: { ok: true, count: 0 } }],
    });
  });

  it('copies six levels of nesting and cuts what lies deeper, so a cyclic object cannot hang a log', () => {
    const deep = { l2: { l3: { l4: { l5: { l6: { l7: { l8: 'x' } }, text: 'kept' } } } } };
    const event = { type: 'token', action: 'fetched', deep } as unknown as BaasEvent;
    expect((redactEvent(event, Secrets.none) as unknown as { deep: unknown }).deep).toStrictEqual({
      l2: { l3: { l4: { l5: { l6: { l7: undefined }, text: 'kept' } } } },
    });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(() =>
      redactEvent({ type: 'token', action: 'fetched', cyclic } as unknown as BaasEvent, Secrets.none),
    ).not.toThrow();
    const list: unknown[] = ['loop'];
    list.push(list);
    expect(() =>
      redactEvent({ type: 'token', action: 'fetched', list } as unknown as BaasEvent, Secrets.none),
    ).not.toThrow();
  });
});

describe('the event log', () => {
  function recorder() {
    const lines: string[] = [];
    const at = (level: string) => (message: string) => lines.push(`${level} ${message}`);
    const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    return { logger, lines };
  }
  const retry: BaasEvent = { type: 'retry', ...call, reason: 'HTTP 503', waitMs: 10 };

  it('wants an event type only when its most severe entry passes the level', () => {
    const wanted = (logLevel: 'error' | 'warn' | 'info' | 'debug') => {
      const log = createEventLog({ logger: recorder().logger, logLevel });
      return (['request', 'response', 'retry', 'error', 'token', 'drift'] as const).filter((type) => log.wants(type));
    };
    expect(wanted('error')).toEqual(['error']);
    expect(wanted('warn')).toEqual(['error', 'token', 'drift']);
    expect(wanted('info')).toEqual(['retry', 'error', 'token', 'drift']);
    expect(wanted('debug')).toEqual(['request', 'response', 'retry', 'error', 'token', 'drift']);
    expect(createEventLog({ logger: recorder().logger, logLevel: 'off' }).wants('error')).toBe(false);
  });

  it('hands an event to every listener of its type, even after one of them throws, and to them after a throwing logger', () => {
    const throwing = () => {
      throw new Error('broken');
    };
    const log = createEventLog({
      logger: { debug: throwing, info: throwing, warn: throwing, error: throwing },
      logLevel: 'debug',
    });
    const heard: string[] = [];
    log.on('retry', throwing);
    log.on('retry', (e) => heard.push(`first ${e.reason}`));
    const off = log.on('retry', (e) => heard.push(`second ${e.reason}`));
    log.on('error', () => heard.push('wrong type'));
    log.emit(retry);
    off();
    log.emit(retry);
    expect(heard).toEqual(['first HTTP 503', 'second HTTP 503', 'first HTTP 503']);
  });

  it('emits nothing, and never throws, when the secrets cannot be read', () => {
    const { logger, lines } = recorder();
    const heard: unknown[] = [];
    const log = createEventLog({
      logger,
      logLevel: 'debug',
      secrets: () => {
        throw new Error('vault down');
      },
    });
    log.on('retry', (e) => heard.push(e));
    expect(() => log.emit(retry)).not.toThrow();
    expect(lines).toEqual([]);
    expect(heard).toEqual([]);
  });

  it('asks for the secrets at each emit that someone hears, and not when nobody does', () => {
    let asked = 0;
    const { logger, lines } = recorder();
    const log = createEventLog({
      logger,
      logLevel: 'info',
      secrets: () => {
        asked += 1;
        return [TOKEN];
      },
    });
    log.emit({ type: 'request', ...call });
    expect(asked).toBe(0);
    log.emit({ ...retry, reason: `token ${TOKEN} refused` } as BaasEvent);
    log.emit(retry);
    expect(asked).toBe(2);
    expect(lines).toEqual([
      'info baas: listPixKeys GET https://api.baas.example/keys attempt 1 failed (token [REDACTED] refused); retrying in 10 ms',
      'info baas: listPixKeys GET https://api.baas.example/keys attempt 1 failed (HTTP 503); retrying in 10 ms',
    ]);
  });
});

describe('logging options', () => {
  it.each([
    [{ logger: null }, 'createBaasClient: logger must be an object with debug, info, warn and error methods'],
    [
      { logger: () => undefined },
      'createBaasClient: logger must be an object with debug, info, warn and error methods',
    ],
    [
      { logger: { debug() {}, warn() {}, error() {} } },
      'createBaasClient: logger.info must be a function (message, object)',
    ],
    [
      { logger: { debug() {}, info() {}, warn: 'no', error() {} } },
      'createBaasClient: logger.warn must be a function (message, object)',
    ],
    [{ logLevel: 'trace' }, "createBaasClient: logLevel must be one of 'off', 'error', 'warn', 'info', 'debug'"],
    [
      { logLevel: 'trace', where: 'auditLog' },
      "auditLog: logLevel must be one of 'off', 'error', 'warn', 'info', 'debug'",
    ],
  ])('%o is refused: %s', (options, message) => {
    let thrown: unknown;
    try {
      createEventLog(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe(message);
  });

  it('resolves the defaults: off without either, warn for a logger, console for a level alone, no logger when off', async () => {
    const { resolveLogging } = await import('../../src/logging/levels.js');
    const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    expect(resolveLogging()).toStrictEqual({ logger: undefined, level: 'off' });
    expect(resolveLogging({ logger })).toStrictEqual({ logger, level: 'warn' });
    expect(resolveLogging({ logLevel: 'info' })).toStrictEqual({ logger: console, level: 'info' });
    expect(resolveLogging({ logger, logLevel: 'off' })).toStrictEqual({ logger: undefined, level: 'off' });
  });

  it('a logger with logLevel off logs nothing', () => {
    const lines: string[] = [];
    const log = createEventLog({
      logger: {
        debug: () => lines.push('debug'),
        info: () => lines.push('info'),
        warn: () => lines.push('warn'),
        error: () => lines.push('error'),
      },
      logLevel: 'off',
    });
    log.emit({ type: 'error', ...call, errorName: 'BaasApiError', message: 'HTTP 500', durationMs: 1 });
    expect(lines).toEqual([]);
  });
});
