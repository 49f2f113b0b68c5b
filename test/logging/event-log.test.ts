// Logs and events: every event kind reaches the logger at its level and the listeners, carrying the
// call's fields, and none can carry a token, the client secret or a full CPF.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventLog } from '../../src/logging/event-log.js';
import { LOG_LEVELS, type Logger, type LogLevel } from '../../src/logging/levels.js';
import { type BaasEvent } from '../../src/logging/events.js';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhY21lIn0.c2lnbmF0dXJlLXZhbHVl';
const SECRET = 'cl13nt-s3cr3t-value';
const CPF = '52998224725';
const CPF_FORMATTED = '529.982.247-25';
const FORBIDDEN = [TOKEN, SECRET, CPF, CPF_FORMATTED];

const url = `https://api.baas.example/v2/api/baas-onboarding/account/natural-person?Account=123456&DocumentNumber=${CPF}`;
const call = { operation: 'updateNaturalPerson' as const, method: 'PUT', url, attempt: 2 };
const leaky = `for CPF ${CPF_FORMATTED} (${CPF}) with Bearer ${TOKEN} and secret ${SECRET}`;
const rateLimit = {
  source: 'ietf' as const,
  policy: 'default',
  limit: 100,
  remaining: 0,
  resetSeconds: 30,
  windowSeconds: 60,
};

/** One event of each kind and action, each stuffed with secrets where a careless client might put them. */
const EVENTS: [string, BaasEvent, Exclude<LogLevel, 'off'>][] = [
  [
    'request',
    {
      type: 'request',
      ...call,
      headers: { Authorization: `Bearer ${TOKEN}`, 'User-Agent': 'acme/1.0', 'X-Note': leaky },
    },
    'debug',
  ],
  [
    'response',
    {
      type: 'response',
      ...call,
      status: 429,
      durationMs: 41.7,
      requestId: 'req-7f3a',
      rateLimit,
      headers: { 'Set-Cookie': `s=${TOKEN}`, 'X-Echo': leaky },
    },
    'debug',
  ],
  [
    'retry',
    {
      type: 'retry',
      ...call,
      reason: `HTTP 503 ${leaky}`,
      waitMs: 500,
      retryAfterMs: 500,
      status: 503,
      requestId: 'req-7f3a',
      rateLimit,
    },
    'info',
  ],
  [
    'error',
    {
      type: 'error',
      ...call,
      errorName: 'BaasApiError',
      errorKind: 'api',
      message: `HTTP 401 ${leaky}`,
      status: 401,
      durationMs: 1200,
      requestId: 'req-7f3a',
      rateLimit,
    },
    'error',
  ],
  [
    'token fetched',
    {
      type: 'token',
      action: 'fetched',
      tokenUrl: `https://auth.example/token?client_secret=${SECRET}`,
      durationMs: 80,
      expiresInSeconds: 2400,
    },
    'debug',
  ],
  [
    'token invalidated',
    { type: 'token', action: 'invalidated', tokenUrl: 'https://auth.example/token', message: `401 with ${TOKEN}` },
    'debug',
  ],
  [
    'token failed',
    {
      type: 'token',
      action: 'failed',
      tokenUrl: 'https://auth.example/token',
      error: 'invalid_client',
      message: leaky,
    },
    'warn',
  ],
];

function recordingLogger() {
  const calls: { level: string; message: string; fields: object }[] = [];
  const make = (level: string) => (message: string, fields: object) => calls.push({ level, message, fields });
  const logger: Logger = { debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
  return { logger, calls };
}

function expectSafe(value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const secret of FORBIDDEN) expect(text).not.toContain(secret);
}

afterEach(() => vi.restoreAllMocks());

describe.each(EVENTS)('a %s event', (_name, event, level) => {
  it(`is logged at ${level} with the call's fields, redacted, and listeners get the same object`, () => {
    const { logger, calls } = recordingLogger();
    const log = createEventLog({ logger, logLevel: 'debug', secrets: () => [TOKEN, SECRET] });
    const heard: BaasEvent[] = [];
    log.on(event.type, (e) => heard.push(e));
    const before = JSON.stringify(event);
    log.emit(event);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.level).toBe(level);
    expect(heard).toEqual([calls[0]!.fields]);
    expectSafe(calls[0]!.message);
    expectSafe(calls[0]!.fields);
    // The original is untouched: redaction copies.
    expect(JSON.stringify(event)).toBe(before);

    const fields = calls[0]!.fields as Record<string, unknown>;
    if (event.type !== 'token') {
      expect(fields).toMatchObject({ type: event.type, operation: 'updateNaturalPerson', method: 'PUT', attempt: 2 });
      expect(fields.url).toBe(
        'https://api.baas.example/v2/api/baas-onboarding/account/natural-person?Account=123456&DocumentNumber=*********25',
      );
      expect(calls[0]!.message).toContain('updateNaturalPerson PUT https://api.baas.example/');
    } else {
      expect(fields).toMatchObject({ type: 'token', action: event.action });
    }
    if ('status' in event) expect(fields.status).toBe(event.status);
    if ('requestId' in event) expect(fields.requestId).toBe('req-7f3a');
    if ('rateLimit' in event) expect(fields.rateLimit).toEqual(rateLimit);
  });

  it('masks credential headers and CPFs even when the client passed no secrets', () => {
    const { logger, calls } = recordingLogger();
    createEventLog({ logger, logLevel: 'debug' }).emit(event);
    const text = JSON.stringify(calls[0]!.fields) + calls[0]!.message;
    expect(text).not.toContain(CPF);
    expect(text).not.toContain(CPF_FORMATTED);
    if (event.type === 'request') expect((calls[0]!.fields as any).headers.authorization).toBe('Bearer [REDACTED]');
    if (event.type === 'response') expect((calls[0]!.fields as any).headers['set-cookie']).toBe('[REDACTED]');
  });
});

describe('levels', () => {
  // Which of the seven events each level lets through.
  const expected: Record<LogLevel, string[]> = {
    off: [],
    error: ['error'],
    warn: ['error', 'token failed'],
    info: ['retry', 'error', 'token failed'],
    debug: EVENTS.map(([name]) => name),
  };

  it.each(LOG_LEVELS)('%s', (logLevel) => {
    const { logger, calls } = recordingLogger();
    const log = createEventLog({ logger, logLevel });
    const passed: string[] = [];
    for (const [name, event] of EVENTS) {
      const before = calls.length;
      log.emit(event);
      if (calls.length > before) passed.push(name);
    }
    expect(passed.sort()).toEqual([...expected[logLevel]].sort());
    // wants() agrees, so the client can skip building events nobody reads.
    for (const [name, event] of EVENTS) if (expected[logLevel].includes(name)) expect(log.wants(event.type)).toBe(true);
  });

  it('defaults: nothing without logger or level; warn with a logger; console with only a level', () => {
    expect(createEventLog().wants('error')).toBe(false);
    const { logger, calls } = recordingLogger();
    const withLogger = createEventLog({ logger });
    for (const [, event] of EVENTS) withLogger.emit(event);
    expect(calls.map((c) => c.level).sort()).toEqual(['error', 'warn']);

    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    createEventLog({ logLevel: 'debug' }).emit(EVENTS[0]![1]);
    expect(debug).toHaveBeenCalledTimes(1);
  });

  it('a listener hears its type even with logging off, and can be removed', () => {
    const log = createEventLog();
    const heard: string[] = [];
    const off = log.on('retry', (e) => heard.push(e.reason));
    expect(log.wants('retry')).toBe(true);
    expect(log.wants('request')).toBe(false);
    log.emit(EVENTS[2]![1]);
    off();
    log.emit(EVENTS[2]![1]);
    expect(heard).toHaveLength(1);
    expect(log.wants('retry')).toBe(false);
  });

  it('a logger or listener that throws does not break the call', () => {
    const throwing = () => {
      throw new Error('disk full');
    };
    const log = createEventLog({
      logger: { debug: throwing, info: throwing, warn: throwing, error: throwing },
      logLevel: 'debug',
    });
    log.on('error', throwing);
    for (const [, event] of EVENTS) expect(() => log.emit(event)).not.toThrow();
  });

  it.each([
    [{ logLevel: 'verbose' }, /logLevel must be one of 'off', 'error', 'warn', 'info', 'debug'/],
    [{ logger: { debug() {}, info() {}, warn() {} } }, /logger\.error must be a function/],
    [{ logger: 'console' }, /logger must be an object/],
  ])('%o is refused, naming the option', (options, message) => {
    expect(() => createEventLog(options as never)).toThrow(message);
  });
});

describe('createEventLog without secrets', () => {
  // There is no built-in list of secrets: other text is logged as it was. The last sample is the text
  // StrykerJS puts in a list it mutates, so a default list that is not empty would show there.
  it.each(['Customer not found', 'Stryker was here'])('logs the message %j unchanged', (message) => {
    const { logger, calls } = recordingLogger();
    createEventLog({ logger, logLevel: 'debug' }).emit({
      type: 'token',
      action: 'failed',
      tokenUrl: 'https://auth.example/token',
      error: 'invalid_client',
      message,
    });
    expect((calls[0]!.fields as { message: string }).message).toBe(message);
  });
});
