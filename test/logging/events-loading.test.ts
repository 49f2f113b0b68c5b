// When the logging code (src/logging/client-events.ts) loads: never for a client without a logger,
// a log level or a listener; on the first listener otherwise. And a load that fails fails only the
// calls that were waiting for it: later calls are sent as usual (without events).
import { afterEach, describe, expect, it, vi } from 'vitest';

const LOGGING = '../../src/logging/client-events.js';
const page = { cursor: { next: null }, data: [] };

afterEach(() => {
  vi.doUnmock(LOGGING);
  vi.resetModules();
});

/** A fresh copy of the package, whose logging code is `factory`'s. */
async function packageWith(factory: (original: () => Promise<unknown>) => unknown) {
  vi.resetModules();
  vi.doMock(LOGGING, (importOriginal) => factory(importOriginal) as never);
  return import('../../src/index.js');
}

describe('the logging code', () => {
  it('is not loaded by a client with no logger, log level or listener; a first listener loads it', async () => {
    const loaded = vi.fn();
    const { createBaasClient } = await packageWith((original) => {
      loaded();
      return original();
    });
    const fetch = vi.fn(async () => Response.json(page));
    const client = createBaasClient({ baseUrl: 'https://api.example.test', token: 'no-logging-token', fetch });
    await expect(client.listPixKeys()).resolves.toStrictEqual(page);
    expect(loaded).not.toHaveBeenCalled();

    const seen: string[] = [];
    client.on('response', (event) => seen.push(event.type));
    await client.listPixKeys();
    expect(loaded).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['response']);
  });

  it('that fails to load fails the calls that waited for it, not the ones after', async () => {
    const { createBaasClient, NetworkError } = await packageWith(() => {
      throw new Error('the logging chunk failed to load');
    });
    const fetch = vi.fn(async () => Response.json(page));
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const client = createBaasClient({ baseUrl: 'https://api.example.test', token: 'failed-logging-token', fetch, logger });
    const first = await client.listPixKeys().catch((error: unknown) => error);
    expect(first).toBeInstanceOf(NetworkError);
    expect(fetch).not.toHaveBeenCalled();
    await expect(client.listPixKeys()).resolves.toStrictEqual(page);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
