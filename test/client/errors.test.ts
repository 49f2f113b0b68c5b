// The error family as a user meets it: each kind's message word for word, its fields, and toJSON()
// (what JSON.stringify and a logger show), with fields the call did not know left out.
import { describe, expect, it } from 'vitest';
import {
  BaasApiError,
  BaasAuthError,
  BaasError,
  BaasNetworkError,
  BaasResponseError,
  BaasTimeoutError,
  BaasTokenError,
  BaasValidationError,
  type ErrorContext,
} from '../../src/index.js';
import { isBaasError } from '../../src/errors.js';
import * as publicEntry from '../../src/index.js';
import { Secrets } from '../../src/redact.js';

/** The context of an error built where no secret is known yet: every rule of the masking still applies. */
const none = { secrets: Secrets.none };

const call: ErrorContext = {
  operation: 'listPixKeys',
  method: 'GET',
  url: 'https://api.example.test/v2/api/pix/keys?limit=10',
  attempts: 2,
  requestId: 'req-7',
  secrets: Secrets.none,
};
const where = {
  operation: 'listPixKeys',
  method: 'GET',
  url: 'https://api.example.test/v2/api/pix/keys?limit=10',
  attempts: 2,
  requestId: 'req-7',
};

describe('BaasError: the message names the operation and the request when the call knows them', () => {
  it('operation, method and URL', () => {
    expect(new BaasAuthError('the token source failed', call).message).toBe(
      'listPixKeys: the token source failed (GET https://api.example.test/v2/api/pix/keys?limit=10)',
    );
  });

  it('no operation: no prefix', () => {
    expect(
      new BaasAuthError('the token source failed', { method: 'GET', url: 'https://x.test/a', ...none }).message,
    ).toBe('the token source failed (GET https://x.test/a)');
  });

  it('a method without a URL, or a URL without a method: no request part', () => {
    expect(new BaasAuthError('no token', { operation: 'raw', method: 'GET', ...none }).message).toBe('raw: no token');
    expect(new BaasAuthError('no token', { operation: 'raw', url: 'https://x.test/a', ...none }).message).toBe(
      'raw: no token',
    );
  });

  it('a context of the secrets alone: the bare message, 0 attempts, and only name and message in toJSON()', () => {
    const error = new BaasAuthError('no token', none);
    expect(error.message).toBe('no token');
    expect(error.attempts).toBe(0);
    expect(error.toJSON()).toStrictEqual({ name: 'BaasAuthError', message: 'no token', kind: 'auth', attempts: 0 });
  });

  it('is an Error named after its class, with its cause, and told apart by kind or isBaasError', () => {
    const cause = new Error('boom');
    const error = new BaasAuthError('the token source failed', call, { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(BaasError);
    expect(error.name).toBe('BaasAuthError');
    expect(error.kind).toBe('auth');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe(
      'BaasAuthError: listPixKeys: the token source failed (GET https://api.example.test/v2/api/pix/keys?limit=10)',
    );
    expect(isBaasError(error)).toBe(true);
    expect(isBaasError(cause)).toBe(false);
    expect(isBaasError(undefined)).toBe(false);
    expect(isBaasError({ kind: 'auth', message: 'x' })).toBe(false);
  });

  it('toJSON() holds the context, not the cause or the stack', () => {
    const error = new BaasAuthError('the token source failed', call, { cause: new Error('boom') });
    expect(error.toJSON()).toStrictEqual({ name: 'BaasAuthError', message: error.message, kind: 'auth', ...where });
    expect(JSON.parse(JSON.stringify(error))).toStrictEqual(error.toJSON());
  });
});

describe('BaasApiError', () => {
  it('HTTP status, problem title and detail', () => {
    const problem = { type: 'about:blank', status: 503, title: 'Service Unavailable', detail: 'try later' };
    const error = new BaasApiError({ status: 503, problem, retryAfterMs: 2_000 }, call);
    expect(error.message).toBe(
      'listPixKeys: HTTP 503 Service Unavailable: try later (GET https://api.example.test/v2/api/pix/keys?limit=10)',
    );
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasApiError',
      message: error.message,
      kind: 'api',
      status: 503,
      problem,
      retryAfterMs: 2_000,
      ...where,
    });
  });

  it('a title alone, a detail alone, neither', () => {
    expect(new BaasApiError({ status: 404, problem: { type: 'about:blank', title: 'Not Found' } }, none).message).toBe(
      'HTTP 404 Not Found',
    );
    expect(
      new BaasApiError({ status: 400, problem: { type: 'about:blank', detail: 'Account is required' } }, none).message,
    ).toBe('HTTP 400 Account is required');
    expect(new BaasApiError({ status: 500, problem: { type: 'about:blank' } }, none).message).toBe('HTTP 500');
    expect(new BaasApiError({ status: 500 }, none).message).toBe('HTTP 500');
  });

  it('the upstream code and the rate limit are fields of their own', () => {
    const rateLimit = { source: 'ietf' as const, remaining: 0, resetSeconds: 30 };
    const error = new BaasApiError({ status: 429, code: 'CIE999', rateLimit }, none);
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasApiError',
      message: 'HTTP 429',
      kind: 'api',
      status: 429,
      code: 'CIE999',
      rateLimit,
      attempts: 0,
    });
    expect(error.code).toBe('CIE999');
    expect(error.rateLimit).toEqual(rateLimit);
  });
});

describe('BaasValidationError', () => {
  const issue = (path: string, message: string) => ({ path, rule: message, message });

  it('counts one problem, lists it, and never names a request (nothing was sent)', () => {
    const issues = [issue('/address/state', 'address.state must be 2 letters')];
    const error = new BaasValidationError(issues, call);
    expect(error.message).toBe(
      'listPixKeys: invalid input, 1 problem, nothing was sent: address.state must be 2 letters',
    );
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasValidationError',
      message: error.message,
      kind: 'validation',
      operation: 'listPixKeys',
      attempts: 0,
      issues,
    });
    expect(error.attempts).toBe(0);
    expect(error.requestId).toBeUndefined();
  });

  it('counts several problems and joins them', () => {
    const error = new BaasValidationError([issue('a', 'first rule'), issue('b', 'second rule')], none);
    expect(error.message).toBe('invalid input, 2 problems, nothing was sent: first rule; second rule');
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasValidationError',
      message: error.message,
      kind: 'validation',
      attempts: 0,
      issues: error.issues,
    });
  });
});

describe('BaasTimeoutError', () => {
  it('the per-attempt limit and the attempt it ended', () => {
    const error = new BaasTimeoutError(1_500, call);
    expect(error.message).toBe(
      'listPixKeys: no complete response within 1500 ms (attempt 2) (GET https://api.example.test/v2/api/pix/keys?limit=10)',
    );
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasTimeoutError',
      message: error.message,
      kind: 'timeout',
      timeoutMs: 1_500,
      ...where,
    });
  });

  it('attempt 0 when the call knows none', () => {
    expect(new BaasTimeoutError(10, none).message).toBe('no complete response within 10 ms (attempt 0)');
  });
});

describe('BaasNetworkError', () => {
  it('the system code and the attempts, plural', () => {
    const error = new BaasNetworkError('ECONNREFUSED', call);
    expect(error.message).toBe(
      'listPixKeys: network failure (ECONNREFUSED) after 2 attempts (GET https://api.example.test/v2/api/pix/keys?limit=10)',
    );
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasNetworkError',
      message: error.message,
      kind: 'network',
      code: 'ECONNREFUSED',
      ...where,
    });
  });

  it('one attempt, singular; no code; a reason in words', () => {
    expect(new BaasNetworkError(undefined, { attempts: 1, ...none }).message).toBe('network failure after 1 attempt');
    expect(new BaasNetworkError(undefined, none).message).toBe('network failure after 0 attempts');
    const tls = new BaasNetworkError(
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      { attempts: 1, ...none },
      'the server asked for a client certificate and none was sent',
    );
    expect(tls.message).toBe(
      'network failure (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED): the server asked for a client certificate and none was sent, after 1 attempt',
    );
    expect(tls.toJSON()).toStrictEqual({
      name: 'BaasNetworkError',
      message: tls.message,
      kind: 'network',
      code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      reason: 'the server asked for a client certificate and none was sent',
      attempts: 1,
    });
  });
});

describe('BaasResponseError', () => {
  it('the reason, the status and the content type', () => {
    const error = new BaasResponseError(
      'the body is not valid JSON',
      { status: 200, contentType: 'application/json', bodySnippet: '{"data":' },
      call,
    );
    expect(error.message).toBe(
      'listPixKeys: the body is not valid JSON (HTTP 200, application/json) (GET https://api.example.test/v2/api/pix/keys?limit=10)',
    );
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasResponseError',
      message: error.message,
      kind: 'response',
      status: 200,
      contentType: 'application/json',
      bodySnippet: '{"data":',
      ...where,
    });
  });

  it('no content type: the status alone; problems as a field', () => {
    const problems = [{ part: 'body' as const, pointer: '/cursor/next', rule: 'must not repeat' }];
    const error = new BaasResponseError('a repeated cursor', { status: 200, problems }, none);
    expect(error.message).toBe('a repeated cursor (HTTP 200)');
    expect(new BaasResponseError('x', { status: 502, contentType: '' }, none).message).toBe('x (HTTP 502)');
    expect(error.toJSON()).toStrictEqual({
      name: 'BaasResponseError',
      message: error.message,
      kind: 'response',
      status: 200,
      problems,
      attempts: 0,
    });
  });
});

describe('no error is built without the secrets of the client at hand', () => {
  const SECRET = 's3cret-value-123';

  it('every field is built through them: a value they hold is masked wherever the provider put it', () => {
    const error = new BaasApiError(
      {
        status: 400,
        problem: { type: 'about:blank', title: `echo ${SECRET}`, [SECRET]: SECRET } as never,
        code: SECRET,
      },
      { method: 'GET', url: `https://x.test/${SECRET}`, requestId: SECRET, secrets: Secrets.of([SECRET]) },
    );
    const forms = [error.message, String(error.stack), JSON.stringify(error), JSON.stringify(error.toJSON())];
    for (const form of forms) expect(form).not.toContain(SECRET);
    expect(error.message).toBe('HTTP 400 echo [REDACTED] (GET https://x.test/[REDACTED])');
  });

  it('a context without them is refused by the type, and by the constructor', () => {
    // @ts-expect-error: ErrorContext.secrets is required
    expect(() => new BaasAuthError('no token', {})).toThrow(TypeError);
    // @ts-expect-error: the context is required
    expect(() => new BaasTimeoutError(10)).toThrow(TypeError);
  });

  it('the refusal names the class, what is missing and how to pass it, for every error class', () => {
    const builds: Array<[string, () => unknown]> = [
      // @ts-expect-error: a JavaScript caller's context without secrets
      ['BaasApiError', () => new BaasApiError({ status: 422 }, { operation: 'listPixKeys', attempts: 1 })],
      // @ts-expect-error: as above
      ['BaasValidationError', () => new BaasValidationError([], { operation: 'listPixKeys' })],
      // @ts-expect-error: as above
      ['BaasTimeoutError', () => new BaasTimeoutError(10, { attempts: 1 })],
      // @ts-expect-error: as above
      ['BaasNetworkError', () => new BaasNetworkError('ECONNRESET', { attempts: 1 })],
      // @ts-expect-error: as above
      ['BaasResponseError', () => new BaasResponseError('not JSON', { status: 200 }, { attempts: 1 })],
      // @ts-expect-error: as above
      ['BaasAuthError', () => new BaasAuthError('no token', { attempts: 1 })],
      // @ts-expect-error: as above
      ['BaasTokenError', () => new BaasTokenError({ tokenUrl: 'https://auth.test/token', status: 401 })],
    ];
    // Every error class the package exports is in the list above, so a new one cannot skip the check.
    const exported = Object.entries(publicEntry)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof BaasError)
      .map(([name]) => name);
    expect(builds.map(([name]) => name).sort()).toEqual(exported.sort());
    for (const [name, build] of builds) {
      expect(build, name).toThrow(TypeError);
      expect(build, name).toThrow(new RegExp(`^${name}: \`secrets\` is required .*Secrets\\.none`));
    }
  });
});
