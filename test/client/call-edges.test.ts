// The call owner's edges, through the public entry with an injected fetch (as openapi-fetch's and
// openai-node's tests do): the context of a token failure, what an injected fetch sees when an attempt
// times out, no retry event after the caller gave up, and a failure's reason found only beside its
// code. An observer with only some hooks is the one seam no public option makes (the client's own
// observer has every hook), so that case builds the Call itself.
import { describe, expect, it } from 'vitest';
import type { CallObserver } from '../../src/call-events.js';
import { Call, type ClientState } from '../../src/client/call.js';
import type { FetchLike } from '../../src/fetch.js';
import type { TokenSource } from '../../src/client/token.js';
import { BaasAuthError, BaasNetworkError, createBaasClient } from '../../src/index.js';
import { Secrets } from '../../src/redact.js';
import { fullUpdate, VALID_ACCOUNT, VALID_CPF } from '../support/fixtures.js';

const BASE = 'https://api.example.test';
const URL_ = `${BASE}/v2/api/pix/keys/list-keys?DocumentNumber=${VALID_CPF}`;
/** The update's URL as an error shows it: the CPF masked but for its last two digits. */
const SHOWN = `${BASE}/v2/api/baas-onboarding/account/natural-person?Account=${VALID_ACCOUNT}&DocumentNumber=*********${VALID_CPF.slice(-2)}`;
const RETRY = {
  maxAttempts: 3,
  baseDelayMs: 0,
  maxDelayMs: 0,
  maxElapsedMs: 60_000,
  maxRetryAfterMs: 60_000,
  statuses: [503],
};

/** The client a user makes, around `fetch`. */
const clientOf = (fetch: FetchLike, token: TokenSource = 'fixed-token-123', timeoutMs = 5_000) =>
  createBaasClient({ baseUrl: BASE, token, fetch, retry: RETRY, timeoutMs });
/** One call of the client (a list of keys), its answer's status or its error. */
const list = (fetch: FetchLike, options: { token?: TokenSource; timeoutMs?: number; signal?: AbortSignal } = {}) =>
  clientOf(fetch, options.token, options.timeoutMs).listPixKeys(options.signal ? { signal: options.signal } : {});

describe('an observer with only some hooks', () => {
  const stateOf = (fetch: FetchLike, observer: CallObserver): ClientState => ({
    fetch,
    token: 'fixed-token-123',
    authorization: 'Bearer fixed-token-123',
    secrets: Secrets.none,
    remember: () => undefined,
    observer,
  });
  const call = (state: ClientState) =>
    new Call({
      client: state,
      request: { operation: 'listPixKeys', method: 'GET', url: URL_, headers: {} },
      timeoutMs: 5_000,
      retry: RETRY,
    }).run(async (response) => response.status);

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
    let sent = 0;
    const fetch: FetchLike = async () => {
      sent += 1;
      return new Response(null, { status: 200 });
    };
    const source = async (): Promise<string> => {
      throw new Error('idp down');
    };
    const error = await clientOf(fetch, source)
      .updateNaturalPerson({ account: VALID_ACCOUNT, documentNumber: VALID_CPF, body: fullUpdate() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasAuthError);
    const { operation, method, url, attempts } = error as BaasAuthError;
    expect({ operation, method, url, attempts }).toEqual({
      operation: 'updateNaturalPerson',
      method: 'PUT',
      url: SHOWN,
      attempts: 0,
    });
    expect(sent).toBe(0);
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
    await list(fetch, { timeoutMs: 5 }).catch(() => undefined);
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
    const fetch: FetchLike = (_url, init) => {
      queueMicrotask(() => controller.abort(reason));
      return new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(new TypeError('fetch failed'))),
      );
    };
    const client = clientOf(fetch);
    for (const type of ['request', 'retry', 'error'] as const) client.on(type, () => void kinds.push(type));
    const error = await client.listPixKeys({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(kinds).toEqual(['request', 'error']);
  });

  it('a reason without a code is not a reason (only a failure that names its code names itself)', async () => {
    const fetch: FetchLike = async () => {
      throw new TypeError('fetch failed', { cause: { reason: 'words without a code' } });
    };
    const error = await list(fetch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).reason).toBeUndefined();
  });
});
