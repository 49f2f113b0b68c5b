// The transport's attempt (src/transport/attempt.ts) and its reading of a failure (failure.ts), on
// their own, with an injected fetch and fake timers: one timer over the answer, the redirects and the
// body; the caller's signal; a hop refused by its caller; the byte limit; what each failure means.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BaasNetworkError, BaasResponseError, BaasTimeoutError } from '../../src/errors.js';
import type { FetchLike } from '../../src/fetch.js';
import { ResponseTooLarge } from '../../src/body-limit.js';
import { Attempt, MAX_TIMER_MS } from '../../src/transport/attempt.js';
import { BLOCKED_PORT_REASON, clientError, failureOf } from '../../src/transport/failure.js';
import { endlessBody } from '../support/endless-body.js';
import { Secrets } from '../../src/redact.js';

/** An error's context where no secret is known: every rule of the masking still applies. */
const NONE = { secrets: Secrets.none };

const URL_ = 'https://api.example/v2/items';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A fetch that answers after `delayMs` (on the faked clock), and rejects with the signal's reason when aborted. */
function slowFetch(answer: (url: string) => Response, delayMs: number, sent: string[] = []): FetchLike {
  return (url, init) =>
    new Promise((resolve, reject) => {
      sent.push(url);
      const timer = setTimeout(() => resolve(answer(url)), delayMs);
      init.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(init.signal!.reason);
      });
    });
}

const attemptOf = (fetch: FetchLike, extra: Partial<ConstructorParameters<typeof Attempt>[0]> = {}) =>
  new Attempt({ fetch, url: URL_, init: { method: 'GET' }, timeoutMs: 100, maxResponseBytes: 1_000, ...extra });

describe('one timer for the whole attempt', () => {
  it('covers the redirects it follows: three hops of 40 ms each time out a 100 ms attempt on the third', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const fetch = slowFetch(
      (url) => new Response(null, { status: 302, headers: { location: `${url}/next` } }),
      40,
      sent,
    );
    const attempt = attemptOf(fetch);
    const outcome = attempt.send().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    const error = await outcome;
    expect(sent).toHaveLength(3);
    expect(attempt.timedOut).toBe(true);
    expect(attempt.url).toBe(`${URL_}/next/next`);
    expect(failureOf(error, attempt)).toEqual({ kind: 'timeout', timeoutMs: 100 });
    attempt.end();
  });

  it('covers the body: a body still arriving when the timer runs out ends the read', async () => {
    vi.useFakeTimers();
    let push: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = controller;
      },
    });
    const attempt = attemptOf(async () => new Response(body));
    const response = await attempt.send();
    push!.enqueue(new Uint8Array([0x7b]));
    const read = attempt.readText(response).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(99);
    expect(attempt.timedOut).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(failureOf(await read, attempt)).toEqual({ kind: 'timeout', timeoutMs: 100 });
  });

  it('is one timer, stopped by end(), and held at what a timer can hold', async () => {
    const armed = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    const attempt = attemptOf(async () => new Response('ok'), { timeoutMs: 10 * MAX_TIMER_MS });
    expect(armed.mock.calls.map(([, ms]) => ms)).toEqual([MAX_TIMER_MS]);
    expect(await attempt.readText(await attempt.send())).toBe('ok');
    attempt.end();
    expect(cleared).toHaveBeenCalledTimes(1);
    expect(attempt.signal.aborted).toBe(false);
  });
});

describe("the caller's signal", () => {
  it("aborts the attempt with the caller's reason, which is what the failure says", async () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const attempt = attemptOf(
      slowFetch(() => new Response('late'), 50),
      { signal: caller.signal },
    );
    const outcome = attempt.send().catch((error: unknown) => error);
    const reason = new Error('the caller gave up');
    caller.abort(reason);
    expect(await outcome).toBe(reason);
    expect(failureOf(await outcome, attempt, caller.signal)).toEqual({ kind: 'aborted', reason });
    expect(clientError({ kind: 'aborted', reason }, { ...NONE })).toBe(reason);
    attempt.end();
  });

  it('already aborted: nothing waits, the attempt starts aborted', async () => {
    const caller = new AbortController();
    caller.abort(new Error('before'));
    const attempt = attemptOf(
      async (_url, init) => {
        init.signal?.throwIfAborted();
        return new Response('sent anyway');
      },
      { signal: caller.signal },
    );
    await expect(attempt.send()).rejects.toThrow('before');
    attempt.end();
  });

  it('no longer reaches an attempt that ended', async () => {
    const caller = new AbortController();
    const attempt = attemptOf(async () => new Response('ok'), { signal: caller.signal });
    await attempt.send();
    attempt.end();
    caller.abort(new Error('later'));
    expect(attempt.signal.aborted).toBe(false);
  });
});

describe('hops', () => {
  it('are told before each is sent; a hop its caller refuses (a budget used up) is not sent', async () => {
    const sent: string[] = [];
    const hops: Array<[string, number]> = [];
    const fetch: FetchLike = async (url) => {
      sent.push(url);
      return new Response(null, { status: 307, headers: { location: '/v2/moved' } });
    };
    const attempt = attemptOf(fetch, {
      onHop: (url, hop) => {
        hops.push([url, hop]);
        if (hop === 1) throw new Error('budget used up');
      },
    });
    await expect(attempt.send()).rejects.toThrow('budget used up');
    expect(hops).toEqual([
      [URL_, 0],
      ['https://api.example/v2/moved', 1],
    ]);
    expect(sent).toEqual([URL_]);
    attempt.end();
  });
});

describe('the byte limit', () => {
  it('stops an endless body past the limit: ResponseTooLarge with the status and content type, the stream cancelled', async () => {
    const endless = endlessBody(256);
    const attempt = attemptOf(
      async () => new Response(endless.body, { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    const error = await attempt.readBytes(await attempt.send()).catch((e: unknown) => e);
    attempt.end();
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect(endless.seen.cancelled).toBe(true);
    expect(endless.seen.bytes).toBeLessThanOrEqual(1_000 + 256);
    const failure = failureOf(error, attempt);
    expect(failure).toEqual({ kind: 'too-large', limitBytes: 1_000, status: 502, contentType: 'text/html' });
    const shown = clientError(failure, { ...NONE, operation: 'raw', method: 'GET', url: URL_, attempts: 1 });
    expect(shown).toBeInstanceOf(BaasResponseError);
    expect(shown).toMatchObject({ status: 502, contentType: 'text/html', limitBytes: 1_000 });
  });
});

describe('what a failure means', () => {
  it('a network failure: its system code, a TLS reason, and the cause chain as text', () => {
    const root = Object.assign(new Error('alert certificate required'), {
      code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      reason: 'no client certificate',
    });
    const error = new TypeError('fetch failed', { cause: root });
    const failure = failureOf(error, undefined);
    expect(failure).toEqual({
      kind: 'network',
      code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      reason: 'no client certificate',
      message: 'fetch failed: alert certificate required (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED)',
    });
    const shown = clientError(failure, { ...NONE, attempts: 2 });
    expect(shown).toBeInstanceOf(BaasNetworkError);
    expect(shown).toMatchObject({ code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', reason: 'no client certificate' });
  });

  // fetch refuses a port the Fetch standard blocks (a sandbox started with --port 6000 serves there)
  // before connecting, with no system code: the error says so instead of a bare "network failure".
  it('a port fetch blocks: the real refusal of the runtime fetch, said as the reason', async () => {
    const error = await fetch('http://127.0.0.1:6000/').then(
      () => expect.unreachable('fetch called a blocked port'),
      (thrown: unknown) => thrown,
    );
    const failure = failureOf(error, undefined);
    expect(failure).toMatchObject({ kind: 'network', code: undefined, reason: BLOCKED_PORT_REASON });
    const shown = clientError(failure, { ...NONE, attempts: 3 }) as BaasNetworkError;
    expect(shown.message).toContain(BLOCKED_PORT_REASON);
    expect(failureOf(new TypeError('fetch failed', { cause: new Error('other words') }), undefined)).toMatchObject({
      reason: undefined,
    });
  });

  it('a timeout is a BaasTimeoutError naming the attempt’s limit', () => {
    const shown = clientError({ kind: 'timeout', timeoutMs: 250 }, { ...NONE, attempts: 1 });
    expect(shown).toBeInstanceOf(BaasTimeoutError);
    expect(shown).toMatchObject({ timeoutMs: 250, attempts: 1 });
  });
});

describe('what an attempt leaves behind', () => {
  it('a timeout aborts with a DOMException named TimeoutError, as AbortSignal.timeout does', async () => {
    vi.useFakeTimers();
    const attempt = attemptOf(async () => new Response('ok'));
    await vi.advanceTimersByTimeAsync(100);
    expect(attempt.signal.reason).toBeInstanceOf(DOMException);
    expect(attempt.signal.reason).toMatchObject({
      name: 'TimeoutError',
      message: expect.stringMatching(/timed out/),
    });
    attempt.end();
  });

  it("no listener on the caller's signal once the attempt ended, nor on its own once a read settled", async () => {
    const caller = new AbortController();
    const attempt = attemptOf(async () => new Response('ok'), { signal: caller.signal });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    expect(await attempt.readText(await attempt.send())).toBe('ok');
    expect(getEventListeners(attempt.signal, 'abort')).toHaveLength(0);
    attempt.end();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('a read begun after the attempt was aborted rejects at once with its reason, and its own failure is not left unhandled', async () => {
    vi.useFakeTimers();
    const attempt = attemptOf(async () => new Response('ok'));
    await vi.advanceTimersByTimeAsync(100);
    let fail: (error: Error) => void = () => undefined;
    const never = new Promise<never>((_resolve, reject) => {
      fail = reject;
    });
    await expect(attempt.whileAlive(never)).rejects.toMatchObject({ name: 'TimeoutError' });
    // The work fails later: nobody awaits it any more, and it must not surface as an unhandled rejection.
    fail(new Error('late failure'));
    await vi.advanceTimersByTimeAsync(0);
    attempt.end();
  });

  it('ResponseTooLarge names itself, the status and the limit', () => {
    const error = new ResponseTooLarge(1_000, 502, 'text/html');
    expect(error.name).toBe('ResponseTooLarge');
    expect(error.message).toMatch(/502.*1000/);
  });
});
