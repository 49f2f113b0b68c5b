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

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses timeoutMs %s', (timeoutMs) => {
    expect(() => resolveOptions({ ...base, timeoutMs })).toThrow(new TypeError('createBaasClient: timeoutMs must be a positive number of milliseconds'));
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
    expect(callSettings(client, {})).toEqual({ timeoutMs: 2_000, retry: { ...DEFAULT_RETRY, maxAttempts: 4 } });
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
    expect(() => callSettings(client, { timeoutMs: 0 })).toThrow(new TypeError('call options: timeoutMs must be a positive number of milliseconds'));
  });
});
