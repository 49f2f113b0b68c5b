// createBaasClient's option checks and defaults, and how a call's own options sit over the client's.
// A refusal is asserted by its class, the option it names and the rule broken; the message's format is
// pinned once, in the first test.
import { rootCertificates } from 'node:tls';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_RETRY } from '../../src/client/retry.js';
import { callSettings, DEFAULT_TIMEOUT_MS, resolveOptions } from '../../src/client/options.js';
import { BaasAuthError } from '../../src/errors.js';
import { type BaasOptionError, isBaasOptionError } from '../../src/option-rules.js';

const base = { baseUrl: 'https://api.baas.example', token: 't0ken-abcdef' };

/** The message of the error `run` throws, checked to be of `type`. */
function refusal(run: () => unknown, type: new (...args: never[]) => Error = TypeError): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('resolveOptions', () => {
  it('refuses no options at all with its own message (the format, pinned once here)', () => {
    expect(() => resolveOptions(undefined as never)).toThrow(
      new TypeError('createBaasClient: baseUrl is required, e.g. "https://sandbox.baas.example"'),
    );
    expect(() => resolveOptions({ ...base, timeout: 5000 } as never)).toThrow(
      new TypeError('createBaasClient: timeout is not an option; did you mean timeoutMs?'),
    );
  });

  it('carries where, the option and the rule as data, for every refusal of an option (BaasOptionError)', () => {
    const parts = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(isBaasOptionError(error)).toBe(true);
        const { where, option, rule } = error as BaasOptionError;
        return { where, option, rule };
      }
      throw new Error('accepted');
    };
    expect(parts(() => resolveOptions({ ...base, timeoutMs: 0 }))).toEqual({
      where: 'createBaasClient',
      option: 'timeoutMs',
      rule: 'must be a positive number of milliseconds, at most 2147483647',
    });
    expect(parts(() => resolveOptions({ ...base, timeout: 1 } as never))).toMatchObject({ option: 'timeout' });
    expect(parts(() => resolveOptions({ ...base, baseUrl: 'http://api.baas.example' }))).toMatchObject({
      where: 'createBaasClient',
      option: 'baseUrl',
    });
    expect(parts(() => resolveOptions({ ...base, tls: { ca: 'x' }, fetch: async () => new Response() }))).toMatchObject(
      {
        option: 'tls',
      },
    );
    expect(parts(() => resolveOptions({ ...base, retry: { baseDelayMs: -1 } }))).toMatchObject({
      where: 'createBaasClient',
      option: 'retry.baseDelayMs',
    });
    expect(parts(() => resolveOptions({ ...base, tls: { ca: [] } }))).toMatchObject({ option: 'tls.ca' });
  });

  // A JavaScript caller has no type check: a mistyped option would be ignored without a word (a
  // 5 s timeout left at 10 s, a base URL reported missing when it was given as baseURL).
  it.each([
    ['baseURL', 'baseUrl'],
    ['timeout', 'timeoutMs'],
    ['userAgnet', 'userAgent'],
    ['maxResponseByte', 'maxResponseBytes'],
    ['loglevel', 'logLevel'],
  ])('refuses the unknown option %s, naming the one meant (%s)', (typo, meant) => {
    const message = refusal(() => resolveOptions({ ...base, [typo]: 'sbx_value_never_shown' } as never));
    expect(message).toContain(`: ${typo} is not an option;`);
    expect(message).toContain(`did you mean ${meant}?`);
    expect(message).not.toContain('sbx_value_never_shown');
  });

  // A member not read is a setting lost without a word: a certificate never sent, a logger never called.
  it('refuses a member far from every option too: a wider object spread in, naming where its options go', () => {
    const config = { ...base, tokenUrl: 'https://auth.example/token', clientId: 'id' };
    expect(refusal(() => resolveOptions(config as never))).toBe(
      'createBaasClient: tokenUrl is not an option here; it goes in token: clientCredentials({ tokenUrl, clientId, clientSecret })',
    );
    expect(refusal(() => resolveOptions({ ...base, tracer: {} } as never))).toMatch(
      /^createBaasClient: tracer is not an option \(known: baseUrl, token, .*onDrift\)$/,
    );
    // Undefined is no option given: `{ ...base, extra: undefined }` stays as it was.
    expect(resolveOptions({ ...base, extra: undefined } as never).baseUrl).toBe(base.baseUrl);
  });

  it('refuses a member whose name is data (a CPF as a key) without showing it', () => {
    const message = refusal(() => resolveOptions({ ...base, '52998224725': 1 } as never));
    expect(message).toMatch(/^createBaasClient: options has a member whose name is not an option, nor a name/);
    expect(message).not.toContain('52998224725');
  });

  // The operation's own URL, copied from a curl line, as the base: every call would go to …/list-keys/v2/api/….
  it.each([
    ['http://127.0.0.1:4020/v2/api/pix/keys/list-keys', 'http://127.0.0.1:4020'],
    ['https://gw.example/baas/v2/api/baas-onboarding/account/natural-person/', 'https://gw.example/baas'],
  ])("refuses baseUrl %s, an operation's URL, naming the root to give (%s)", (baseUrl, root) => {
    const message = refusal(() => resolveOptions({ ...base, baseUrl }));
    expect(message).toMatch(/^createBaasClient: baseUrl /);
    expect(message).toContain(new URL(baseUrl).pathname.replace(/\/$/, '').replace(/^\/baas/, ''));
    expect(message.endsWith(root)).toBe(true);
  });

  it('keeps a gateway prefix, whatever it is', () => {
    expect(resolveOptions({ ...base, baseUrl: 'https://gw.example/v2/api' }).baseUrl).toBe('https://gw.example/v2/api');
  });

  it('gives the defaults', () => {
    const settings = resolveOptions(base);
    expect(settings).toMatchObject({
      baseUrl: 'https://api.baas.example',
      token: 't0ken-abcdef',
      timeoutMs: 10_000,
      retry: DEFAULT_RETRY,
      validate: true,
      logging: undefined,
    });
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    expect(settings.userAgent).toMatch(/^baas-pix-contract\/\d+\.\d+\.\d+/);
  });

  it('keeps what it is given', () => {
    const fetch = vi.fn();
    const settings = resolveOptions({
      ...base,
      userAgent: 'my-app/2.0',
      timeoutMs: 1_500,
      retry: false,
      validate: false,
      fetch,
    });
    expect(settings).toMatchObject({ userAgent: 'my-app/2.0', timeoutMs: 1_500, retry: false, validate: false, fetch });
  });

  // An options mistake like any other (not a BaasAuthError, which is a token source failing at call
  // time): the rule says what to do and shows the right form, never the token given.
  it.each([
    [{ token: undefined }, /^is required: the bearer token, a string or a function returning one, e\.g\. token: /],
    [{ token: '' }, /^is required/],
    [{ token: 42 }, /^must be a string or a function returning one, not a number, e\.g\. /],
    [{ token: '  ' }, /^must not be blank: give the token itself, e\.g\. /],
    [{ token: 'a\nb' }, /^holds a control character.*as one line of text, e\.g\. token: "sbx_abc123"$/],
    // Read from a file, or a .env saved on Windows: the line ending came along.
    [{ token: 'sbx_abc123\r\n' }, /^ends with a line break.*give the token alone, without it, e\.g\. /],
    // Copied from the banner's `Authorization: Bearer sbx_…`: it would go out as "Bearer Bearer sbx_…".
    [{ token: 'Bearer sbx_abc123' }, /^starts with "Bearer ".*give the token alone/],
    [{ token: 'Authorization: Bearer sbx_abc123' }, /^starts with "Bearer "/],
  ])('refuses token %j as an options mistake: %s', (override, rule) => {
    let error: unknown;
    try {
      resolveOptions({ ...base, ...(override as object) } as never);
    } catch (caught) {
      error = caught;
    }
    expect(isBaasOptionError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(BaasAuthError);
    const { where, option, rule: words, message } = error as BaasOptionError;
    expect({ where, option }).toEqual({ where: 'createBaasClient', option: 'token' });
    expect(words).toMatch(rule);
    expect(message).toBe(`createBaasClient: token ${words}`);
  });

  // Over 2^31-1 ms Node's timer would fire at once (TimeoutOverflowWarning): refused like 0.
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5000'])('refuses timeoutMs %s', (timeoutMs) => {
    expect(refusal(() => resolveOptions({ ...base, timeoutMs: timeoutMs as number }))).toMatch(
      /^createBaasClient: timeoutMs .*2147483647$/,
    );
  });

  it('takes timeoutMs up to 2^31-1 ms', () => {
    expect(resolveOptions({ ...base, timeoutMs: 2 ** 31 - 1 }).timeoutMs).toBe(2 ** 31 - 1);
  });

  it('maxResponseBytes: 10 MiB by default, or what it is given', () => {
    expect(resolveOptions(base).maxResponseBytes).toBe(10 * 1024 * 1024);
    expect(resolveOptions({ ...base, maxResponseBytes: 1 }).maxResponseBytes).toBe(1);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1024'])(
    'refuses maxResponseBytes %s, naming the option and the rule',
    (maxResponseBytes) => {
      expect(refusal(() => resolveOptions({ ...base, maxResponseBytes: maxResponseBytes as number }))).toMatch(
        /^createBaasClient: maxResponseBytes .*whole number/,
      );
    },
  );

  it.each([
    ['baseDelayMs', -1],
    ['maxDelayMs', 2 ** 31],
    ['maxDelayMs', Number.POSITIVE_INFINITY],
    ['maxRetryAfterMs', 315_360_000_000],
    ['maxRetryAfterMs', Number.NaN],
  ])('refuses retry.%s %s at creation: no timer is armed past 2^31-1 ms', (name, value) => {
    expect(refusal(() => resolveOptions({ ...base, retry: { [name]: value } }))).toMatch(
      new RegExp(`^createBaasClient: retry\\.${name} .*0 to 2147483647$`),
    );
  });

  it('refuses a blank userAgent', () => {
    expect(refusal(() => resolveOptions({ ...base, userAgent: ' ' }))).toMatch(/^createBaasClient: userAgent .*empty$/);
  });

  it.each([
    ['a tab', 'my-app/1.0\tlinux'],
    ['a line break', 'my-app/1.0\r\nX-Forged: 1'],
    ['an accented letter', 'café/1.0'],
    ['a leading space', ' my-app/1.0'],
    ['257 characters', 'a'.repeat(257)],
  ])("refuses a userAgent the contract's User-Agent rule refuses: %s", (_, userAgent) => {
    const message = refusal(() => resolveOptions({ ...base, userAgent }));
    expect(message).toMatch(/^createBaasClient: userAgent must be printable ASCII .*256 characters/);
    expect(message).not.toContain(userAgent.trim());
  });

  it('keeps a userAgent within the rule, up to 256 characters with inner spaces', () => {
    const userAgent = `my app/2.0 (linux; x64) ${'a'.repeat(256 - 24)}`;
    expect(userAgent).toHaveLength(256);
    expect(resolveOptions({ ...base, userAgent }).userAgent).toBe(userAgent);
  });

  it('refuses tls together with fetch', () => {
    expect(refusal(() => resolveOptions({ ...base, fetch: vi.fn(), tls: { ca: 'x' } }))).toMatch(
      /^createBaasClient: .*tls or fetch/,
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

  it('sends through its own TLS fetch when tls is given alone, never the global fetch', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('ok'));
    const settings = resolveOptions({ ...base, tls: { ca: rootCertificates[0]! } });
    try {
      // Port 1 on loopback: refused at once by the TLS fetch's own connection.
      await expect(settings.fetch('https://127.0.0.1:1/x', { method: 'GET' })).rejects.toThrow();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
      await settings.close();
    }
  });

  it('logs through a logger given alone (at warn), or the console at a logLevel given alone', () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    expect(resolveOptions({ ...base, logger }).logging).toEqual({ logger, level: 'warn' });
    expect(resolveOptions({ ...base, logLevel: 'debug' }).logging).toEqual({
      logger: globalThis.console,
      level: 'debug',
    });
    expect(resolveOptions({ ...base, logger, logLevel: 'error' }).logging).toEqual({ logger, level: 'error' });
  });
});

describe('callSettings', () => {
  // The operation's name is where its refusals say they were made.
  const settingsOf = (settings: Parameters<typeof callSettings>[0], options: Parameters<typeof callSettings>[1]) =>
    callSettings(settings, options, 'listPixKeys');
  const client = resolveOptions({ ...base, timeoutMs: 2_000, retry: { maxAttempts: 4 } });

  it("is the client's when the call says nothing", () => {
    expect(settingsOf(client, {})).toEqual({
      timeoutMs: 2_000,
      retry: { ...DEFAULT_RETRY, maxAttempts: 4 },
      maxResponseBytes: 10 * 1024 * 1024,
    });
  });

  it("lays the call's retry over the client's, or turns it off", () => {
    expect(settingsOf(client, { retry: { baseDelayMs: 1 } }).retry).toEqual({
      ...DEFAULT_RETRY,
      maxAttempts: 4,
      baseDelayMs: 1,
    });
    expect(settingsOf(client, { retry: false }).retry).toBe(false);
  });

  it("keeps a client's retry: false for a call that says nothing", () => {
    expect(settingsOf(resolveOptions({ ...base, retry: false }), {}).retry).toBe(false);
  });

  it('gives a call retries even when the client has none', () => {
    const none = resolveOptions({ ...base, retry: false });
    expect(settingsOf(none, { retry: { maxAttempts: 2 } }).retry).toEqual({ ...DEFAULT_RETRY, maxAttempts: 2 });
  });

  it("takes the call's timeout, checked with its own name", () => {
    expect(settingsOf(client, { timeoutMs: 50 }).timeoutMs).toBe(50);
    expect(refusal(() => settingsOf(client, { timeoutMs: 0 }))).toMatch(/^listPixKeys: timeoutMs .*2147483647$/);
    expect(() => settingsOf(client, { timeoutMs: 2 ** 31 })).toThrow(/^listPixKeys: timeoutMs /);
  });

  it("takes the call's maxResponseBytes over the client's, checked with its own name", () => {
    expect(settingsOf(resolveOptions({ ...base, maxResponseBytes: 4_096 }), {}).maxResponseBytes).toBe(4_096);
    expect(settingsOf(client, { maxResponseBytes: 64 }).maxResponseBytes).toBe(64);
    expect(refusal(() => settingsOf(client, { maxResponseBytes: 0 }))).toMatch(/^listPixKeys: maxResponseBytes /);
  });

  it("checks a call's retry waits like the client's", () => {
    expect(() => settingsOf(client, { retry: { maxRetryAfterMs: 2 ** 31 } })).toThrow(
      /^listPixKeys: retry\.maxRetryAfterMs /,
    );
  });
});
