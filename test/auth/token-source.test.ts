// The clientCredentials token source itself, with the endpoint as an injected fetch: its cache and
// single flight, invalidate, the secrets it hands the client for redaction, its events, and close.
import { describe, expect, it, vi } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { type BaasTokenError } from '../../src/auth/token-error.js';
import type { TokenEvent } from '../../src/logging/events.js';
import { FAKE_URL, fakeEndpoint, fakeOptions, SECRET, tokenAnswer } from './fake-endpoint.js';
import { fakeClock } from '../support/clock.js';

const CLIENT_ID = 'acme-payments';
const BASIC = Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64');

describe('secrets(): what the client masks', () => {
  it('the client secret, the client id and their Basic form before any token, then every token issued', async () => {
    const source = clientCredentials(fakeOptions(fakeEndpoint()));
    expect(source.secrets()).toEqual([SECRET, CLIENT_ID, BASIC]);
    await source();
    source.invalidate();
    await source();
    expect(source.secrets()).toEqual([SECRET, CLIENT_ID, BASIC, 'token-1', 'token-2']);
  });

  it('keeps every token issued while it is alive, however many came since (issue 34), and drops it once dead', async () => {
    const clock = fakeClock(Date.UTC(2026, 0, 1));
    const source = clientCredentials(fakeOptions(fakeEndpoint()));
    const tokens = Array.from({ length: 20 }, (_, i) => `token-${i + 1}`);
    for (let i = 0; i < 20; i += 1) {
      await source();
      source.invalidate();
    }
    expect(source.secrets()).toEqual([SECRET, CLIENT_ID, BASIC, ...tokens]);
    // Each lives 3,600 s from when it was asked for.
    clock.advance(3_599_000);
    expect(source.secrets()).toEqual([SECRET, CLIENT_ID, BASIC, ...tokens]);
    clock.advance(1_000);
    expect(source.secrets()).toEqual([SECRET, CLIENT_ID, BASIC]);
  });

  it('keeps at most the latest 64 alive', async () => {
    const source = clientCredentials(fakeOptions(fakeEndpoint()));
    for (let i = 0; i < 65; i += 1) {
      await source();
      source.invalidate();
    }
    expect(source.secrets()).toEqual([
      SECRET,
      CLIENT_ID,
      BASIC,
      ...Array.from({ length: 64 }, (_, i) => `token-${i + 2}`),
    ]);
  });

  it('a failed request adds nothing', async () => {
    const source = clientCredentials(fakeOptions(fakeEndpoint(() => tokenAnswer({ error: 'invalid_client' }, 401))));
    await source().catch(() => undefined);
    expect(source.secrets()).toEqual([SECRET, CLIENT_ID, BASIC]);
  });
});

describe('the cache', () => {
  it('concurrent callers on a cold cache share one request, and one failure', async () => {
    let release: (response: Response) => void = () => undefined;
    const endpoint = fakeEndpoint(() => new Promise<Response>((resolve) => (release = resolve)));
    const source = clientCredentials(fakeOptions(endpoint));
    const waiting = Promise.allSettled([source(), source(), source()]);
    await vi.waitFor(() => expect(endpoint.sent).toHaveLength(1));
    release(tokenAnswer({ error: 'temporarily_unavailable' }, 503));
    const results = await waiting;
    expect(endpoint.sent).toHaveLength(1);
    expect(results.map((r) => r.status === 'rejected' && (r.reason as BaasTokenError).error)).toEqual([
      'temporarily_unavailable',
      'temporarily_unavailable',
      'temporarily_unavailable',
    ]);
    // Not cached: the next call asks again.
    const next = source();
    await vi.waitFor(() => expect(endpoint.sent).toHaveLength(2));
    release(tokenAnswer({ access_token: 'token-after' }));
    expect(await next).toBe('token-after');
  });

  it('invalidate() before any token, or with a token that is not the cached one, drops nothing and says nothing', async () => {
    const endpoint = fakeEndpoint();
    const source = clientCredentials(fakeOptions(endpoint));
    const events: TokenEvent[] = [];
    source.observe((e) => events.push(e));
    source.invalidate();
    source.invalidate('token-1');
    expect(await source()).toBe('token-1');
    source.invalidate('token-0');
    expect(await source()).toBe('token-1');
    expect(endpoint.sent).toHaveLength(1);
    source.invalidate('token-1');
    source.invalidate('token-1');
    expect(await source()).toBe('token-2');
    expect(events.map((e) => e.action)).toEqual(['fetched', 'invalidated', 'fetched']);
    expect(events[1]).toEqual({ type: 'token', action: 'invalidated', tokenUrl: FAKE_URL });
  });
});

describe('events', () => {
  it('fetched (duration and lifetime), failed (the RFC 6749 code, or the failure, and the message); never a token or the secret', async () => {
    const clock = fakeClock(5_000);
    let call = 0;
    const endpoint = fakeEndpoint(async () => {
      call += 1;
      clock.advance(120);
      if (call === 1) return tokenAnswer({ access_token: 'token-secret-value', expires_in: 600 });
      if (call === 2)
        return tokenAnswer({ error: 'invalid_client', error_description: `secret ${SECRET} refused` }, 401);
      throw new Error('connect ECONNREFUSED');
    });
    const source = clientCredentials(fakeOptions(endpoint, {}));
    const events: TokenEvent[] = [];
    source.observe((e) => events.push(e));
    await source();
    source.invalidate();
    await source().catch(() => undefined);
    await source().catch(() => undefined);
    expect(events).toEqual([
      { type: 'token', action: 'fetched', tokenUrl: FAKE_URL, durationMs: 120, expiresInSeconds: 600 },
      { type: 'token', action: 'invalidated', tokenUrl: FAKE_URL },
      {
        type: 'token',
        action: 'failed',
        tokenUrl: FAKE_URL,
        error: 'invalid_client',
        message: `token request to ${FAKE_URL} failed: HTTP 401 invalid_client: secret [REDACTED] refused`,
      },
      {
        type: 'token',
        action: 'failed',
        tokenUrl: FAKE_URL,
        error: 'network',
        message: `token request to ${FAKE_URL} failed: connect ECONNREFUSED`,
      },
    ]);
  });

  it('every listener hears each event, one that throws included; a throwing listener changes nothing', async () => {
    const source = clientCredentials(fakeOptions(fakeEndpoint()));
    const heard: string[] = [];
    source.observe(() => {
      throw new Error('listener broke');
    });
    source.observe((e) => heard.push(`second ${e.action}`));
    expect(await source()).toBe('token-1');
    source.invalidate();
    expect(await source()).toBe('token-2');
    expect(heard).toEqual(['second fetched', 'second invalidated', 'second fetched']);
  });

  it('a listener added before the first token hears it; the function observe returns stops it', async () => {
    const source = clientCredentials(fakeOptions(fakeEndpoint()));
    const heard: string[] = [];
    const stop = source.observe((e) => heard.push(e.action));
    await source();
    stop();
    source.invalidate();
    await source();
    expect(heard).toEqual(['fetched']);
  });
});

describe('close()', () => {
  it('leaves an injected fetch alone: it is the caller’s', async () => {
    const endpoint = fakeEndpoint();
    const close = vi.fn(async () => undefined);
    const source = clientCredentials(fakeOptions(endpoint, { fetch: Object.assign(endpoint.fetch, { close }) }));
    await source();
    await expect(source.close()).resolves.toBeUndefined();
    expect(close).not.toHaveBeenCalled();
  });

  it('resolves without tls and without a token ever fetched', async () => {
    await expect(clientCredentials(fakeOptions(fakeEndpoint())).close()).resolves.toBeUndefined();
  });
});
