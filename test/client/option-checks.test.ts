// createBaasClient's option checks and defaults, word for word, and how a call's own options sit over
// the client's.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_RETRY } from '../../src/client/retry.js';
import { callSettings, DEFAULT_TIMEOUT_MS, resolveOptions } from '../../src/client/options.js';
import { AuthError } from '../../src/errors.js';

const base = { baseUrl: 'https://api.baas.example', token: 't0ken-abcdef' };

describe('resolveOptions', () => {
  it('refuses no options at all with its own message', () => {
    expect(() => resolveOptions(undefined as never)).toThrow(new TypeError('createBaasClient: baseUrl is required, e.g. "https://sandbox.baas.example"'));
  });

  it('gives the defaults', () => {
    const settings = resolveOptions(base);
    expect(settings).toMatchObject({ baseUrl: 'https://api.baas.example', token: 't0ken-abcdef', timeoutMs: 10_000, retry: DEFAULT_RETRY, validate: true, logging: undefined });
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    expect(settings.userAgent).toMatch(/^baas-pix-contract\/\d+\.\d+\.\d+/);
  });

  it('keeps what it is given', () => {
    const fetch = vi.fn();
    const settings = resolveOptions({ ...base, userAgent: 'my-app/2.0', timeoutMs: 1_500, retry: false, validate: false, fetch });
    expect(settings).toMatchObject({ userAgent: 'my-app/2.0', timeoutMs: 1_500, retry: false, validate: false, fetch });
  });

  it.each([
    [{ token: undefined }, 'createBaasClient: token is required (a string or a function returning one)'],
    [{ token: '' }, 'createBaasClient: token is required (a string or a function returning one)'],
    [{ token: 42 }, 'createBaasClient: token must be a string or a function returning one'],
    [{ token: '  ' }, 'createBaasClient: the token source gave an empty token'],
    [{ token: 'a\nb' }, 'createBaasClient: the token source gave a token with a control character'],
  ])('refuses token %j as an AuthError: %s', (override, message) => {
    const attempt = () => resolveOptions({ ...base, ...(override as object) } as never);
    expect(attempt).toThrow(AuthError);
    expect(attempt).toThrow(message);
  });

  // Over 2^31-1 ms Node's timer would fire at once (TimeoutOverflowWarning): refused like 0.
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5000'])('refuses timeoutMs %s', (timeoutMs) => {
    expect(() => resolveOptions({ ...base, timeoutMs: timeoutMs as number })).toThrow(
      new TypeError('createBaasClient: timeoutMs must be a positive number of milliseconds, at most 2147483647'),
    );
  });

  it('takes timeoutMs up to 2^31-1 ms', () => {
    expect(resolveOptions({ ...base, timeoutMs: 2 ** 31 - 1 }).timeoutMs).toBe(2 ** 31 - 1);
  });

  it('maxResponseBytes: 10 MiB by default, or what it is given', () => {
    expect(resolveOptions(base).maxResponseBytes).toBe(10 * 1024 * 1024);
    expect(resolveOptions({ ...base, maxResponseBytes: 1 }).maxResponseBytes).toBe(1);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1024'])('refuses maxResponseBytes %s, naming the option and the rule', (maxResponseBytes) => {
    expect(() => resolveOptions({ ...base, maxResponseBytes: maxResponseBytes as number })).toThrow(
      new TypeError('createBaasClient: maxResponseBytes must be a positive whole number of bytes'),
    );
  });

  it.each([
    ['baseDelayMs', -1],
    ['maxDelayMs', 2 ** 31],
    ['maxDelayMs', Number.POSITIVE_INFINITY],
    ['maxRetryAfterMs', 315_360_000_000],
    ['maxRetryAfterMs', Number.NaN],
  ])('refuses retry.%s %s at creation: no timer is armed past 2^31-1 ms', (name, value) => {
    expect(() => resolveOptions({ ...base, retry: { [name]: value } })).toThrow(new TypeError(`retry.${name} must be a number of milliseconds from 0 to 2147483647`));
  });

  it('refuses a blank userAgent', () => {
    expect(() => resolveOptions({ ...base, userAgent: ' ' })).toThrow(new TypeError('createBaasClient: userAgent must not be empty'));
  });

  it('refuses tls together with fetch', () => {
    expect(() => resolveOptions({ ...base, fetch: vi.fn(), tls: { ca: 'x' } })).toThrow(
      new TypeError('createBaasClient: give either tls or fetch, not both (tls makes its own fetch on undici; for a fetch of your own, give it the certificate)'),
    );
  });

  it('calls the global fetch when none is given, as fetch(url, init)', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('ok'));
    try {
      const init = { method: 'GET' };
      await resolveOptions(base).fetch('https://api.baas.example/x', init);
      expect(spy).toHaveBeenCalledWith('https://api.baas.example/x', init);
    } finally {
      spy.mockRestore();
    }
  });

  it('has nothing to close without tls', async () => {
    await expect(resolveOptions(base).close()).resolves.toBeUndefined();
  });
});

describe('callSettings', () => {
  const client = resolveOptions({ ...base, timeoutMs: 2_000, retry: { maxAttempts: 4 } });

  it("is the client's when the call says nothing", () => {
    expect(callSettings(client, {})).toEqual({ timeoutMs: 2_000, retry: { ...DEFAULT_RETRY, maxAttempts: 4 }, maxResponseBytes: 10 * 1024 * 1024 });
  });

  it("lays the call's retry over the client's, or turns it off", () => {
    expect(callSettings(client, { retry: { baseDelayMs: 1 } }).retry).toEqual({ ...DEFAULT_RETRY, maxAttempts: 4, baseDelayMs: 1 });
    expect(callSettings(client, { retry: false }).retry).toBe(false);
  });

  it("keeps a client's retry: false for a call that says nothing", () => {
    expect(callSettings(resolveOptions({ ...base, retry: false }), {}).retry).toBe(false);
  });

  it("gives a call retries even when the client has none", () => {
    const none = resolveOptions({ ...base, retry: false });
    expect(callSettings(none, { retry: { maxAttempts: 2 } }).retry).toEqual({ ...DEFAULT_RETRY, maxAttempts: 2 });
  });

  it("takes the call's timeout, checked with its own name", () => {
    expect(callSettings(client, { timeoutMs: 50 }).timeoutMs).toBe(50);
    expect(() => callSettings(client, { timeoutMs: 0 })).toThrow(new TypeError('call options: timeoutMs must be a positive number of milliseconds, at most 2147483647'));
    expect(() => callSettings(client, { timeoutMs: 2 ** 31 })).toThrow(/^call options: timeoutMs /);
  });

  it("takes the call's maxResponseBytes over the client's, checked with its own name", () => {
    expect(callSettings(resolveOptions({ ...base, maxResponseBytes: 4_096 }), {}).maxResponseBytes).toBe(4_096);
    expect(callSettings(client, { maxResponseBytes: 64 }).maxResponseBytes).toBe(64);
    expect(() => callSettings(client, { maxResponseBytes: 0 })).toThrow(new TypeError('call options: maxResponseBytes must be a positive whole number of bytes'));
  });

  it("checks a call's retry waits like the client's", () => {
    expect(() => callSettings(client, { retry: { maxRetryAfterMs: 2 ** 31 } })).toThrow(/^retry\.maxRetryAfterMs /);
  });
});
