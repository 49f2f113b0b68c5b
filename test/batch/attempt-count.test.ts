// The batch sends each attempt itself (to pace its retries), yet its errors and the client's events
// count every attempt of the request: a BaasNetworkError after the fifth says "after 5 attempts", and the
// retry events number the attempts 1 to 4, as a single client call with retries would.
import { describe, expect, it } from 'vitest';
import { createBaasClient, exportKeys, BaasNetworkError, BaasTimeoutError, updateMany } from '../../src/index.js';
import { BASE_URL, sandboxClient } from './support.js';

const refused = async (): Promise<Response> => {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });
};

describe('the attempts of a batch request', () => {
  const { items, token } = sandboxClient({ accountsPerClient: 1 });
  // No wait between attempts: the count, not the backoff, is under test.
  const retry = { maxAttempts: 5, baseDelayMs: 0 };

  it('updateMany: the last error counts every attempt, and the events number each one', async () => {
    let requests = 0;
    const client = createBaasClient({
      baseUrl: BASE_URL,
      token,
      fetch: () => {
        requests += 1;
        return refused();
      },
    });
    const numbered: number[] = [];
    client.on('request', (event) => numbered.push(event.attempt));
    const results = [];
    for await (const result of updateMany(client, items, { retry })) results.push(result);
    expect(requests).toBe(5);
    expect(numbered).toEqual([1, 2, 3, 4, 5]);
    const [result] = results;
    expect(result?.ok).toBe(false);
    const error = (result as { error: unknown }).error as BaasNetworkError;
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect(error.attempts).toBe(5);
    expect(error.message).toContain('after 5 attempts');
  });

  it('exportKeys: a page that never comes counts every attempt too', async () => {
    const client = createBaasClient({ baseUrl: BASE_URL, token, fetch: refused });
    const error = await (async () => {
      for await (const _key of exportKeys(client, { retry: { maxAttempts: 3, baseDelayMs: 0 } }));
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BaasNetworkError);
    expect((error as BaasNetworkError).attempts).toBe(3);
  });

  it('a timed-out attempt names its number', async () => {
    const client = createBaasClient({
      baseUrl: BASE_URL,
      token,
      timeoutMs: 1,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
    });
    const results = [];
    for await (const result of updateMany(client, items, { retry: { maxAttempts: 2, baseDelayMs: 0 } }))
      results.push(result);
    const error = (results[0] as { error: unknown }).error as BaasTimeoutError;
    expect(error).toBeInstanceOf(BaasTimeoutError);
    expect(error.attempts).toBe(2);
    expect(error.message).toContain('(attempt 2)');
  });
});
