// clientCredentials loads its cache and token request (token-cache.ts) on first use. When that load
// fails (a chunk missing from a deployment, a chunk fetch that failed), the call rejects with the
// load's error, and the next call tries the load again instead of keeping the failure.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeEndpoint, fakeOptions } from './fake-endpoint.js';

afterEach(() => {
  vi.doUnmock('../../src/auth/token-cache.js');
  vi.resetModules();
});

describe('the lazy part of clientCredentials', () => {
  it('a failed load rejects with its error; the next call loads it again and gets a token', async () => {
    let loads = 0;
    vi.doMock('../../src/auth/token-cache.js', async (importOriginal) => {
      loads += 1;
      if (loads === 1) throw new Error('chunk token-cache failed to load');
      return importOriginal();
    });
    vi.resetModules();
    const { clientCredentials } = await import('../../src/auth/client-credentials.js');
    const endpoint = fakeEndpoint();
    const source = clientCredentials(fakeOptions(endpoint));
    const error = (await source().catch((e: unknown) => e)) as Error;
    // The load's own error (vitest's mocker hands a factory's error on as the cause of its own).
    expect(error).toBeInstanceOf(Error);
    expect((error.cause as Error | undefined)?.message).toBe('chunk token-cache failed to load');
    expect(endpoint.sent).toHaveLength(0);
    expect(await source()).toBe('token-1');
    expect(loads).toBe(2);
  });
});
