// The runtime's fetch as the one default (src/transport/runtime-fetch.ts): looked up on globalThis at
// each call, so a fetch put there after the package loaded (a test's, a polyfill, an APM agent's) is
// the one a request goes through, with the URL and init it was given.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runtimeFetch } from '../../src/transport/runtime-fetch.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('runtimeFetch', () => {
  it('sends through the fetch on globalThis at the time of the call, with the URL and init given', async () => {
    const seen: [unknown, unknown][] = [];
    const answer = new Response('first');
    vi.stubGlobal('fetch', async (url: unknown, init: unknown) => {
      seen.push([url, init]);
      return answer;
    });
    const init = { method: 'GET', headers: { accept: 'application/json' } };
    await expect(runtimeFetch('https://api.example/x', init)).resolves.toBe(answer);
    expect(seen).toEqual([['https://api.example/x', init]]);
    // Replaced later: the new one is used, not the one the module saw first.
    const later = new Response('later');
    vi.stubGlobal('fetch', async () => later);
    await expect(runtimeFetch('https://api.example/y', init)).resolves.toBe(later);
    expect(seen).toHaveLength(1);
  });
});
