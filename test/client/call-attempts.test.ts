// The call owner (src/client/call.ts) attempt by attempt, with an injected fetch: what each attempt
// sends, the one-time 401 token renewal, which answers and failures are tried again and what the
// retry event says, the request id and URL errors carry, and what a failure becomes. Through the
// public entry (`createBaasClient` with an injected fetch, `client.on`, `.withResponse()`), as
// openapi-fetch's and openai-node's tests do, wherever a user can make the case; the Call itself
// (`run`) only where no public option reaches: a POST (the contract has none), the client's extra
// fetch init, the observer seam's own fields and times, and a reader of the caller's own.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEvent } from '../../src/call-events.js';
import { Call, type CallRequest, type ClientState } from '../../src/client/call.js';
import type { FetchLike } from '../../src/fetch.js';
import type { RetrySettings } from '../../src/client/retry.js';
import type { TokenSource } from '../../src/client/token.js';
import {
  BaasApiError,
  type BaasClientOptions,
  type BaasEvent,
  BaasNetworkError,
  BaasTimeoutError,
  createBaasClient,
} from '../../src/index.js';
import { Secrets } from '../../src/redact.js';

/** An error's context where no secret is known: every rule of the masking still applies. */
const NONE = { secrets: Secrets.none };

const URL_ = 'https://api.example.test/v2/api/pix/keys/list-keys';
const FAST: RetrySettings = {
  maxAttempts: 3,
  baseDelayMs: 0,
  maxDelayMs: 0,
  maxElapsedMs: 60_000,
  maxRetryAfterMs: 60_000,
  statuses: [429, 502, 503, 504],
};

afterEach(() => {
  vi.useRealTimers();
});

/** A fetch that answers with `answers` in turn (a function may throw), recording each request. */
function scripted(...answers: Array<(init: RequestInit) => Response | Promise<Response>>) {
  const calls: Array<{ url: string; init: RequestInit; authorization: string | undefined }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init, authorization: (init.headers as Record<string, string>).Authorization });
    const answer = answers[Math.min(calls.length, answers.length) - 1]!;
    return answer(init);
  };
  return { fetch, calls };
}

/** One client's state around `fetch`, recording the observer's events. */
function stateOf(fetch: FetchLike, token: TokenSource = 'fixed-token-123', extra: Partial<ClientState> = {}) {
  const events: Array<[string, CallEvent]> = [];
  const secrets: string[] = [];
  const state: ClientState = {
    fetch,
    token,
    authorization: typeof token === 'string' ? `Bearer ${token}` : undefined,
    secrets: Secrets.of(() => secrets),
    remember: (value) => {
      if (!secrets.includes(value)) secrets.push(value);
    },
    observer: {
      attempt: (e) => events.push(['attempt', e]),
      response: (e) => events.push(['response', e]),
      retry: (e) => events.push(['retry', e]),
      error: (e) => events.push(['error', e]),
    },
    ...extra,
  };
  return { state, events, kinds: () => events.map(([kind]) => kind) };
}

const request = (over: Partial<CallRequest> = {}): CallRequest => ({
  operation: 'listPixKeys',
  method: 'GET',
  url: URL_,
  headers: { Accept: 'application/json' },
  ...over,
});

/** Runs a call whose reader hands back the final status and the call's error context. */
const run = (
  state: ClientState,
  over: Partial<CallRequest> = {},
  retry: RetrySettings | false = FAST,
  signal?: AbortSignal,
  timeoutMs = 5_000,
) => {
  const call = new Call({ client: state, request: request(over), timeoutMs, retry, signal });
  return call.run(async (response, c) => ({ status: response.status, context: c.context(), rateLimit: c.rateLimit }));
};

const status =
  (code: number, headers: Record<string, string> = {}, body: BodyInit | null = null) =>
  () =>
    new Response(body, { status: code, headers });
/** A page of keys (an empty one): what a successful listPixKeys answers. */
const page =
  (headers: Record<string, string> = {}) =>
  () =>
    new Response('{"data":[],"cursor":{"next":null}}', {
      status: 200,
      headers: { 'content-type': 'application/json', ...headers },
    });

/** The client a user makes around `fetch`, with FAST retries unless told, recording its events. */
function clientOf(fetch: FetchLike, token: TokenSource = 'fixed-token-123', options: Partial<BaasClientOptions> = {}) {
  const client = createBaasClient({ baseUrl: 'https://api.example.test', token, fetch, retry: FAST, ...options });
  const events: BaasEvent[] = [];
  for (const type of ['request', 'response', 'retry', 'error'] as const) client.on(type, (e) => events.push(e));
  return { client, events, kinds: () => events.map((e) => e.type) };
}

/** What a list of keys ended with, answer or API error alike: its status, attempts, request id, rate limit. */
async function listed(client: ReturnType<typeof clientOf>['client'], signal?: AbortSignal) {
  try {
    const { response, attempts, requestId, rateLimit } = await client
      .listPixKeys(signal ? { signal } : {})
      .withResponse();
    return { status: response.status, attempts, requestId, rateLimit };
  } catch (error) {
    if (!(error instanceof BaasApiError)) throw error;
    const { status, attempts, requestId, rateLimit } = error;
    return { status, attempts, requestId, rateLimit };
  }
}
const failing = (cause: unknown) => () => {
  throw new TypeError('fetch failed', { cause });
};

describe('what an attempt sends', () => {
  it('the method, the headers with the bearer token, the body, manual redirects, the client init; no body as null', async () => {
    const server = scripted(status(200), status(200));
    const { state } = stateOf(server.fetch, 'fixed-token-123', { init: { dispatcher: 'the-agent', keepalive: true } });
    await run(state, { method: 'PUT', body: '{"a":1}' });
    await run(state);
    expect(server.calls[0]?.init).toMatchObject({
      method: 'PUT',
      body: '{"a":1}',
      redirect: 'manual',
      dispatcher: 'the-agent',
      keepalive: true,
    });
    expect(server.calls[0]?.init.headers).toEqual({
      Accept: 'application/json',
      Authorization: 'Bearer fixed-token-123',
    });
    expect(server.calls[0]?.init.signal).toBeInstanceOf(AbortSignal);
    expect(server.calls[1]?.init.body).toBeNull();
  });

  it('a token function is asked before each attempt', async () => {
    const server = scripted(status(503), page());
    let n = 0;
    await listed(clientOf(server.fetch, async () => `token-number-${++n}`).client);
    expect(server.calls.map((c) => c.authorization)).toEqual(['Bearer token-number-1', 'Bearer token-number-2']);
  });

  it("the attempt event shows the request headers without Authorization, and each event the call's fields", async () => {
    const server = scripted(status(200, { 'x-request-id': 'req-9' }));
    const { state, events } = stateOf(server.fetch);
    await run(state, { url: `${URL_}?DocumentNumber=52998224725` });
    expect(events.map(([kind, e]) => [kind, e.operation, e.method, e.url, e.attempt])).toEqual([
      ['attempt', 'listPixKeys', 'GET', `${URL_}?DocumentNumber=*********25`, 1],
      ['response', 'listPixKeys', 'GET', `${URL_}?DocumentNumber=*********25`, 1],
    ]);
    expect(events[0]?.[1].headers).toEqual({ Accept: 'application/json' });
    expect(events[1]?.[1]).toMatchObject({ status: 200, requestId: 'req-9' });
    expect(events[1]?.[1].responseHeaders?.get('x-request-id')).toBe('req-9');
  });

  it('event durations: an attempt from its start, the error from the call start', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const step = (ms: number, answer: () => Response) => () => {
      vi.setSystemTime(Date.now() + ms);
      return answer();
    };
    const server = scripted(step(250, status(503)), step(400, status(503)), step(100, failing(new Error('gone'))));
    const { state, events } = stateOf(server.fetch);
    await run(state).catch(() => undefined);
    expect(events.map(([kind, e]) => `${kind} ${e.attempt} ${e.durationMs}`)).toEqual([
      'attempt 1 0',
      'response 1 250',
      'retry 1 250',
      'attempt 2 0',
      'response 2 400',
      'retry 2 400',
      'attempt 3 0',
      'error 3 750',
    ]);
  });
});

describe('a 401 and the token', () => {
  it('a token function with invalidate: the refused token is dropped, a new one fetched, the call repeated once', async () => {
    let cancelled = false;
    const refused = () =>
      new Response(
        new ReadableStream({
          cancel: () => {
            cancelled = true;
          },
        }),
        {
          status: 401,
          headers: { 'x-request-id': 'req-401' },
        },
      );
    const server = scripted(refused, page());
    let n = 0;
    const invalidate = vi.fn();
    const source = Object.assign(async () => `token-number-${++n}`, { invalidate });
    const { client, events } = clientOf(server.fetch, source, { retry: false });
    const outcome = await listed(client);
    // A success's metadata is its own answer's (this one has no request id).
    expect(outcome).toMatchObject({ status: 200, attempts: 2, requestId: undefined });
    expect(invalidate.mock.calls).toEqual([['token-number-1']]);
    expect(server.calls.map((c) => c.authorization)).toEqual(['Bearer token-number-1', 'Bearer token-number-2']);
    expect(cancelled).toBe(true);
    expect(events.flatMap((e) => (e.type === 'retry' ? [[e.waitMs, e.reason, e.status]] : []))).toEqual([
      [0, 'token refused (401)', 401],
    ]);
    // An error after the renewal, from an answer without an id, carries the refused answer's: the call's last.
    const renewed = Object.assign(async () => 'token-renewed-1', { invalidate: vi.fn() });
    const failed = await listed(clientOf(scripted(refused, status(500)).fetch, renewed, { retry: false }).client);
    expect(failed).toMatchObject({ status: 500, attempts: 2, requestId: 'req-401' });
  });

  it('a second 401 is the answer: the token is dropped once per call', async () => {
    const server = scripted(status(401));
    const invalidate = vi.fn();
    const { client } = clientOf(
      server.fetch,
      Object.assign(async () => 'token-always-1', { invalidate }),
    );
    await expect(listed(client)).resolves.toMatchObject({ status: 401, attempts: 2 });
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it('a token function without invalidate, or a fixed token: a 401 is the answer at once', async () => {
    for (const token of [async () => 'token-always-1', 'fixed-token-123'] as TokenSource[]) {
      const server = scripted(status(401));
      await expect(listed(clientOf(server.fetch, token).client)).resolves.toMatchObject({ status: 401, attempts: 1 });
    }
  });

  it('with invalidate, only a 401 is renewed (a 403 is the answer)', async () => {
    const server = scripted(status(403));
    const invalidate = vi.fn();
    const { client } = clientOf(
      server.fetch,
      Object.assign(async () => 'token-always-1', { invalidate }),
    );
    await expect(listed(client)).resolves.toMatchObject({ status: 403, attempts: 1 });
    expect(invalidate).not.toHaveBeenCalled();
  });
});

describe('answers tried again', () => {
  it('a retryable status is tried again; the body of the dropped answer is cancelled; the retry event says why', async () => {
    let cancelled = 0;
    const busy = () =>
      new Response(
        new ReadableStream({
          cancel: () => {
            cancelled += 1;
          },
        }),
        { status: 503 },
      );
    const server = scripted(busy, busy, page());
    const { client, events } = clientOf(server.fetch);
    await expect(listed(client)).resolves.toMatchObject({ status: 200, attempts: 3 });
    expect(cancelled).toBe(2);
    expect(events.flatMap((e) => (e.type === 'retry' ? [[e.attempt, e.reason, e.status, e.waitMs]] : []))).toEqual([
      [1, 'HTTP 503', 503, 0],
      [2, 'HTTP 503', 503, 0],
    ]);
  });

  it('Retry-After is the wait', async () => {
    const server = scripted(status(503, { 'retry-after': '0' }), page());
    const { client, events } = clientOf(server.fetch, undefined, {
      retry: { ...FAST, baseDelayMs: 10_000, maxDelayMs: 10_000 },
    });
    await listed(client);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ waitMs: 0 });
  });

  it('with retry off, or for a status not in the list, the first answer is the answer', async () => {
    for (const [code, retry] of [
      [503, false],
      [500, FAST],
    ] as const) {
      const server = scripted(status(code), page());
      const { client } = clientOf(server.fetch, undefined, { retry });
      await expect(listed(client)).resolves.toMatchObject({ status: code, attempts: 1 });
    }
  });

  it('a POST is tried again only with an Idempotency-Key header, in any case', async () => {
    for (const [headers, attempts] of [
      [{}, 1],
      [{ 'Idempotency-Key': 'k1' }, 2],
      [{ 'idempotency-key': 'k1' }, 2],
      [{ 'X-Idempotency': 'k1' }, 1],
    ] as const) {
      const server = scripted(status(503), status(200));
      const { state } = stateOf(server.fetch);
      const outcome = await run(state, { method: 'POST', headers: { ...headers } });
      expect(outcome.context.attempts).toBe(attempts);
    }
  });

  it('the request id of a dropped answer is the context of a final answer without one; a later one wins', async () => {
    const cases: Array<[Array<() => Response>, string | undefined]> = [
      [[status(503, { 'x-request-id': 'req-1' }), status(503), status(500)], 'req-1'],
      [[status(503, { 'x-request-id': 'req-1' }), status(503, { 'x-request-id': 'req-2' }), status(500)], 'req-2'],
      [[status(503, { 'x-request-id': 'req-1' }), status(500, { 'x-request-id': 'req-3' })], 'req-3'],
      [[status(500)], undefined],
    ];
    for (const [answers, requestId] of cases) {
      const outcome = await listed(clientOf(scripted(...answers).fetch).client);
      expect(outcome.requestId).toBe(requestId);
    }
  });

  it('a final 429 carries its rate-limit fields; another status does not read them', async () => {
    const headers = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' };
    const limited = await listed(clientOf(scripted(status(429, headers)).fetch, undefined, { retry: false }).client);
    expect(limited.rateLimit).toEqual({ source: 'separate-fields', limit: 100, remaining: 0, resetSeconds: 30 });
    const other = await listed(clientOf(scripted(status(503, headers)).fetch, undefined, { retry: false }).client);
    expect(other.rateLimit).toBeUndefined();
  });
});

describe('failures', () => {
  it('a network failure is tried again, the retry event naming its code; the last one is a BaasNetworkError', async () => {
    const server = scripted(
      failing({ code: 'ECONNRESET' }),
      failing(new Error('no code')),
      failing({ code: 'ECONNREFUSED' }),
    );
    const { client, events } = clientOf(server.fetch);
    const error = await listed(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).message).toBe(
      `listPixKeys: network failure (ECONNREFUSED) after 3 attempts (GET ${URL_})`,
    );
    expect(events.flatMap((e) => (e.type === 'retry' ? [e.reason] : []))).toEqual(['network ECONNRESET', 'network']);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      errorName: 'BaasNetworkError',
      message: (error as Error).message,
    });
  });

  it('a network failure of a POST is not tried again', async () => {
    const server = scripted(failing({ code: 'ECONNRESET' }), status(200));
    const error = await run(stateOf(server.fetch).state, { method: 'POST' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).attempts).toBe(1);
  });

  it('the code and reason of a failure are found down its causes, up to five levels', async () => {
    const chain = (depth: number, leaf: object) => {
      let error: object = leaf;
      for (let i = 0; i < depth; i += 1) error = new Error(`level ${i}`, { cause: error });
      return error;
    };
    const tls = {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      reason: "Host: api.example.test. is not in the cert's altnames",
    };
    const once = (fetch: FetchLike) => listed(clientOf(fetch, undefined, { retry: false }).client);
    const found = await once(scripted(() => Promise.reject(chain(4, tls))).fetch).catch((e: unknown) => e);
    expect(found).toMatchObject({ code: tls.code, reason: tls.reason });
    expect((found as BaasNetworkError).message).toBe(
      `listPixKeys: network failure (${tls.code}): ${tls.reason}, after 1 attempt (GET ${URL_})`,
    );
    const deeper = await once(scripted(() => Promise.reject(chain(5, tls))).fetch).catch((e: unknown) => e);
    expect(deeper).toBeInstanceOf(BaasNetworkError);
    expect(deeper).toMatchObject({ code: undefined, reason: undefined });
  });

  it('a code without a reason is no reason; a cause chain that loops ends', async () => {
    const once = (fetch: FetchLike) => listed(clientOf(fetch, undefined, { retry: false }).client);
    const coded = await once(scripted(failing({ code: 'ECONNRESET', reason: 42 })).fetch).catch((e: unknown) => e);
    expect(coded).toMatchObject({ code: 'ECONNRESET', reason: undefined });
    const loop = new Error('loop') as Error & { cause?: unknown };
    loop.cause = loop;
    const looped = await once(scripted(() => Promise.reject(loop)).fetch).catch((e: unknown) => e);
    expect(looped).toMatchObject({ code: undefined, reason: undefined, attempts: 1 });
  });

  it('an attempt that outlives timeoutMs is aborted and tried again; the last is a BaasTimeoutError', async () => {
    const hanging = (init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const server = scripted(hanging, hanging);
    const { client, events } = clientOf(server.fetch, undefined, { retry: { ...FAST, maxAttempts: 2 }, timeoutMs: 5 });
    const error = await listed(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTimeoutError);
    expect((error as BaasTimeoutError).message).toBe(
      `listPixKeys: no complete response within 5 ms (attempt 2) (GET ${URL_})`,
    );
    expect(events.flatMap((e) => (e.type === 'retry' ? [e.reason] : []))).toEqual(['timeout']);
    expect((server.calls[0]?.init.signal?.reason as DOMException | undefined)?.name).toBe('TimeoutError');
  });

  it('a reader still reading when the attempt times out gets a BaasTimeoutError; its own later failure is ignored', async () => {
    const { state } = stateOf(scripted(status(200)).fetch);
    const call = new Call({ client: state, request: request(), timeoutMs: 5, retry: false });
    let fail!: (error: Error) => void;
    const error = await call.run(() => new Promise((_resolve, reject) => (fail = reject))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTimeoutError);
    fail(new Error('late'));
  });

  it("the caller's abort before the call: its reason, nothing sent", async () => {
    const server = scripted(page());
    const reason = new Error('caller gave up');
    const { client, events } = clientOf(server.fetch);
    const error = await listed(client, AbortSignal.abort(reason)).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(server.calls).toHaveLength(0);
    expect(events.map((e) => [e.type, e.type === 'error' ? e.message : undefined])).toEqual([
      ['error', 'caller gave up'],
    ]);
  });

  it("the caller's abort while the token is fetched: its reason, nothing sent", async () => {
    const server = scripted(status(200));
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const slowToken = async () => {
      controller.abort(reason);
      return 'token-after-abort';
    };
    const error = await listed(clientOf(server.fetch, slowToken).client, controller.signal).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(server.calls).toHaveLength(0);
  });

  it('an aborted call asks no token', async () => {
    const token = vi.fn(async () => 'token-never-1');
    const error = await listed(
      clientOf(scripted(page()).fetch, token).client,
      AbortSignal.abort(new Error('gone')),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('gone');
    expect(token).not.toHaveBeenCalled();
  });

  it("no listener is left on the caller's signal once a call ended", async () => {
    const controller = new AbortController();
    const { client } = clientOf(scripted(page(), failing({ code: 'ECONNRESET' })).fetch, undefined, { retry: false });
    await listed(client, controller.signal);
    await listed(client, controller.signal).catch(() => undefined);
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it("the caller's abort during an attempt aborts that attempt with the caller's reason, not retried", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const server = scripted((init) => {
      queueMicrotask(() => controller.abort(reason));
      return new Promise<Response>((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    });
    const error = await listed(clientOf(server.fetch).client, controller.signal).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.init.signal?.reason).toBe(reason);
  });

  it.each([
    ['reads the body (a read that never ends)', () => new Promise<never>(() => undefined)],
    // A read that fails after the abort must leave no unhandled rejection (vitest fails the run on one).
    ['reads the body and the read then fails', () => Promise.reject(new Error('read failed'))],
  ])("the caller's abort while the reader %s: its reason", async (_what, read) => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const call = new Call({
      client: stateOf(scripted(status(200)).fetch).state,
      request: request(),
      timeoutMs: 5_000,
      retry: false,
      signal: controller.signal,
    });
    const error = await call
      .run(() => {
        controller.abort(reason);
        return read();
      })
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it('an error the reader throws as a BaasError is the outcome, and the error event carries its request id', async () => {
    const server = scripted(status(500, { 'x-request-id': 'req-5' }));
    const { state, events } = stateOf(server.fetch);
    const thrown = new BaasApiError({ status: 500 }, { ...NONE, operation: 'listPixKeys', requestId: 'req-5' });
    const call = new Call({ client: state, request: request(), timeoutMs: 5_000, retry: false });
    await expect(call.run(() => Promise.reject(thrown))).rejects.toBe(thrown);
    expect(events.at(-1)).toEqual(['error', expect.objectContaining({ error: thrown, requestId: 'req-5' })]);
  });

  it.each([
    ['an answer that is tried again', () => new Response(null, { status: 503, headers: { 'retry-after': '0' } })],
    ['a network failure', () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }))],
  ])('the timer of an attempt that ended on %s does not reach into the next attempt', async (_what, first) => {
    // Attempt 1 ends at 10 ms; attempt 2 starts at once and fails (network) at 105 ms: after attempt
    // 1's timer would have fired (110 ms... 100 ms after it started), before attempt 2's own (110 ms).
    vi.useFakeTimers();
    const settleAfter = <T>(ms: number, settle: () => T | Promise<T>) =>
      new Promise<T>((resolve, reject) => setTimeout(() => Promise.resolve().then(settle).then(resolve, reject), ms));
    const server = scripted(
      () => settleAfter(10, first),
      () => settleAfter(95, () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))),
    );
    const { client } = clientOf(server.fetch, undefined, { retry: { ...FAST, maxAttempts: 2 }, timeoutMs: 100 });
    const outcome = listed(client).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(300);
    const error = await outcome;
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).code).toBe('ECONNREFUSED');
  });

  it('a success is never tried again, even with its status in the retry list', async () => {
    const server = scripted(page(), page());
    const { client } = clientOf(server.fetch, undefined, { retry: { ...FAST, statuses: [200, 503] } });
    expect((await listed(client)).attempts).toBe(1);
  });

  it('the attempt timer is cleared once the call ends, whatever the outcome', async () => {
    vi.useFakeTimers();
    const { state } = stateOf(scripted(status(200)).fetch);
    await new Call({ client: state, request: request(), timeoutMs: 60_000, retry: false }).run(async () => 'done');
    expect(vi.getTimerCount()).toBe(0);
    await new Call({
      client: stateOf(scripted(failing({ code: 'ECONNRESET' })).fetch).state,
      request: request(),
      timeoutMs: 60_000,
      retry: false,
    })
      .run(async () => 'done')
      .catch(() => undefined);
    expect(vi.getTimerCount()).toBe(0);
  });
});
