// The call owner's edges, with an injected fetch: an observer with only some hooks, the context of a
// token failure, what an injected fetch sees when an attempt times out, no retry event after the
// caller gave up, and a failure's reason found only beside its code.
import { describe, expect, it } from 'vitest';
import type { CallEvent, CallObserver } from '../../src/call-events.js';
import { Call, type ClientState } from '../../src/client/call.js';
import type { FetchLike } from '../../src/fetch.js';
import type { TokenSource } from '../../src/client/token.js';
import { BaasAuthError, BaasNetworkError } from '../../src/index.js';
import { Secrets } from '../../src/redact.js';

const URL_ = 'https://api.example.test/v2/api/pix/keys/list-keys?DocumentNumber=52998224725';
const SHOWN = 'https://api.example.test/v2/api/pix/keys/list-keys?DocumentNumber=*********25';
const RETRY = {
  maxAttempts: 3,
  baseDelayMs: 0,
  maxDelayMs: 0,
  maxElapsedMs: 60_000,
  maxRetryAfterMs: 60_000,
  statuses: [503],
};

const stateOf = (fetch: FetchLike, observer?: CallObserver, token: TokenSource = 'fixed-token-123'): ClientState => ({
  fetch,
  token,
  authorization: typeof token === 'string' ? `Bearer ${token}` : undefined,
  secrets: Secrets.none,
  remember: () => undefined,
  observer,
});
const call = (state: ClientState, signal?: AbortSignal, timeoutMs = 5_000) =>
  new Call(state, { operation: 'listPixKeys', method: 'GET', url: URL_, headers: {} }, timeoutMs, RETRY, signal).run(
    async (response) => response.status,
  );

describe('an observer with only some hooks', () => {
  it.each([
    ['no hook', {}],
    ['only drift', { drift: () => undefined }],
    ['only attempt', { attempt: () => undefined }],
  ])('%s: answers, retries and failures go through', async (_what, observer: CallObserver) => {
    let n = 0;
    const fetch: FetchLike = async () => {
      n += 1;
      if (n === 1) return new Response(null, { status: 503 });
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    };
    const error = await call(stateOf(fetch, observer)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).attempts).toBe(3);
  });
});

describe('edges', () => {
  it("a token source's failure is a BaasAuthError with the call's context, before any attempt", async () => {
    const fetch: FetchLike = async () => new Response(null, { status: 200 });
    const source = async (): Promise<string> => {
      throw new Error('idp down');
    };
    const error = await call(stateOf(fetch, undefined, source)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasAuthError);
    const { operation, method, url, attempts } = error as BaasAuthError;
    expect({ operation, method, url, attempts }).toEqual({
      operation: 'listPixKeys',
      method: 'GET',
      url: SHOWN,
      attempts: 0,
    });
  });

  it('an injected fetch sees its attempt aborted with a TimeoutError DOMException saying so', async () => {
    let reason: unknown;
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => {
          reason = init.signal!.reason;
          reject(reason);
        }),
      );
    await call(stateOf(fetch), undefined, 5).catch(() => undefined);
    expect(reason).toBeInstanceOf(DOMException);
    expect([(reason as DOMException).name, (reason as DOMException).message]).toEqual([
      'TimeoutError',
      'attempt timed out',
    ]);
  });

  it("after the caller's abort during an attempt, no retry is announced", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const kinds: string[] = [];
    const record = (kind: string) => (_e: CallEvent) => void kinds.push(kind);
    const fetch: FetchLike = (_url, init) => {
      queueMicrotask(() => controller.abort(reason));
      return new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(new TypeError('fetch failed'))),
      );
    };
    const error = await call(
      stateOf(fetch, { attempt: record('attempt'), retry: record('retry'), error: record('error') }),
      controller.signal,
    ).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(kinds).toEqual(['attempt', 'error']);
  });

  it('a reason without a code is not a reason (only a failure that names its code names itself)', async () => {
    const fetch: FetchLike = async () => {
      throw new TypeError('fetch failed', { cause: { reason: 'words without a code' } });
    };
    const error = await call(stateOf(fetch)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).reason).toBeUndefined();
  });
});
