// What a stranger taking the package to production met, each through the public entry with an injected
// fetch that records what would be sent: an option put where it is not read (a certificate beside
// `tls`, `log` for logger, client credentials beside `token`) was ignored without a word; the README's
// placeholder token `sbx_…` went out and came back a BaasNetworkError after three attempts. Each is now
// refused before anything is sent, saying where the option goes or which character no token has.
import { describe, expect, it, vi } from 'vitest';
import {
  BaasAuthError,
  type BaasOptionError,
  clientCredentials,
  createBaasClient,
  isBaasOptionError,
} from '../../src/index.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nMIIE-secret-key-never-shown\n-----END PRIVATE KEY-----\n';

/** An injected fetch that answers an empty page and records each request it was given. */
function recordingFetch() {
  const sent: string[] = [];
  const fetch = vi.fn(async (url: string | URL | Request) => {
    sent.push(String(url));
    return Response.json({ cursor: { next: null }, data: [] });
  });
  return { fetch, sent };
}

const BASE = { baseUrl: 'https://sandbox.baas.example', token: 'sbx_test_token' };

/** The BaasOptionError `run` throws. */
function refusal(run: () => unknown): BaasOptionError {
  try {
    run();
  } catch (error) {
    expect(isBaasOptionError(error), String(error)).toBe(true);
    return error as BaasOptionError;
  }
  throw new Error('accepted');
}

describe('an option where it is not read is refused, saying where it goes', () => {
  it('cert and key beside tls: refused (no certificate would ever be sent), pointing at tls', () => {
    const { fetch, sent } = recordingFetch();
    const error = refusal(() => createBaasClient({ ...BASE, fetch, cert: PEM, key: KEY_PEM } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect({ where: error.where, option: error.option }).toEqual({ where: 'createBaasClient', option: 'cert' });
    expect(error.message).toBe(
      'createBaasClient: cert is not an option here; it goes in tls: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }',
    );
    expect(error.message).not.toContain('MIIE');
    expect(sent).toEqual([]);
    for (const name of ['key', 'pfx', 'ca', 'passphrase'])
      expect(refusal(() => createBaasClient({ ...BASE, fetch, [name]: PEM } as never)).rule).toMatch(
        /^is not an option here; it goes in tls: /,
      );
  });

  it('log for logger: refused with the name meant; tracer, close to nothing, listing the options', () => {
    const { fetch } = recordingFetch();
    expect(refusal(() => createBaasClient({ ...BASE, fetch, log: console } as never)).message).toBe(
      'createBaasClient: log is not an option; did you mean logger?',
    );
    const tracer = refusal(() => createBaasClient({ ...BASE, fetch, tracer: {} } as never));
    expect(tracer.option).toBe('tracer');
    expect(tracer.rule).toMatch(/^is not an option \(known: baseUrl, token, userAgent, fetch, .*logger, logLevel/);
  });

  it('client credentials beside token: where they go, not "token is required"', () => {
    const { fetch, sent } = recordingFetch();
    const error = refusal(() =>
      createBaasClient({
        baseUrl: BASE.baseUrl,
        fetch,
        clientId: 'acme',
        clientSecret: 'client-secret-never-shown',
        tokenUrl: 'https://auth.example/token',
      } as never),
    );
    expect(error.option).toBe('clientId');
    expect(error.rule).toBe(
      'is not an option here; it goes in token: clientCredentials({ tokenUrl, clientId, clientSecret })',
    );
    expect(error.message).not.toContain('client-secret-never-shown');
    expect(sent).toEqual([]);
    for (const name of ['clientSecret', 'tokenUrl', 'scope'])
      expect(refusal(() => createBaasClient({ ...BASE, fetch, [name]: 'x' } as never)).rule).toContain(
        'token: clientCredentials({',
      );
  });

  it('a tls member beside clientCredentials’ tls: refused too', () => {
    const error = refusal(() =>
      clientCredentials({
        tokenUrl: 'https://auth.example/token',
        clientId: 'acme',
        clientSecret: 'secret',
        pfx: 'bytes',
      } as never),
    );
    expect(error.where).toBe('clientCredentials');
    expect(error.rule).toMatch(/^is not an option here; it goes in tls: /);
  });

  it('the options as written stay accepted, and an undefined member is no option given', async () => {
    const { fetch, sent } = recordingFetch();
    const client = createBaasClient({ ...BASE, fetch, logger: console, logLevel: 'off', extra: undefined } as never);
    await client.listPixKeys({ limit: 5 });
    expect(sent).toHaveLength(1);
  });
});

// docs/guides/production.md: without a logger, logLevel writes to console (the documented default).
describe('logLevel without a logger', () => {
  it('writes to console, as documented: not a silent no-op', async () => {
    const failing = vi.fn(async () => new Response('{"title":"boom"}', { status: 500 }));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const client = createBaasClient({ ...BASE, fetch: failing, retry: false, logLevel: 'error' });
      await expect(client.listPixKeys({ limit: 5 })).rejects.toThrow(/HTTP 500/);
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0]![0])).toMatch(/listPixKeys .* failed after 1 attempt/);
    } finally {
      error.mockRestore();
    }
  });
});

describe("the README's placeholder token, copied as it is", () => {
  const PLACEHOLDER = 'sbx_\u2026';

  it('as the token option: a BaasOptionError naming U+2026, nothing sent', () => {
    const { fetch, sent } = recordingFetch();
    const error = refusal(() => createBaasClient({ ...BASE, fetch, token: PLACEHOLDER }));
    expect(error.option).toBe('token');
    expect(error.rule).toMatch(/^holds '\u2026' \(U\+2026, an ellipsis\), which no token has: copy the whole token/);
    expect(sent).toEqual([]);
  });

  it("as a token source's answer: a BaasAuthError naming U+2026 at the call, nothing sent, not retried", async () => {
    const { fetch, sent } = recordingFetch();
    const source = vi.fn(() => PLACEHOLDER);
    const client = createBaasClient({ ...BASE, fetch, token: source });
    const error = await client.listPixKeys({ limit: 5 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect((error as Error).message).toMatch(
      /the token source gave a token that holds '\u2026' \(U\+2026, an ellipsis\), which no token has: .*; nothing was sent/,
    );
    expect(sent).toEqual([]);
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('a token of any b64token character is sent as it is', async () => {
    const { fetch } = recordingFetch();
    const token = 'sbx_AZaz09-._~+/==';
    await createBaasClient({ ...BASE, fetch, token }).listPixKeys({ limit: 5 });
    const init = fetch.mock.calls[0]![1 as never] as RequestInit | undefined;
    const request = fetch.mock.calls[0]![0] as unknown;
    const authorization =
      request instanceof Request
        ? request.headers.get('authorization')
        : new Headers(init?.headers).get('authorization');
    expect(authorization).toBe(`Bearer ${token}`);
  });
});
