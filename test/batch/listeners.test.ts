// No MaxListenersExceededWarning at any concurrency: each running item listens to signals of its own,
// which the batch aborts, so no one signal gathers a listener per item.
import { afterEach, describe, expect, it } from 'vitest';
import { createBaasClient, updateMany } from '../../src/index.js';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe.each([11, 50, 200])('updateMany at concurrency %d', (concurrency) => {
  it('prints no MaxListenersExceededWarning, with a signal and a rate', async () => {
    process.on('warning', onWarning);
    let answered = 0;
    const release: Array<() => void> = [];
    const fetch = async (): Promise<Response> => {
      // Every request waits until all of them are on the wire: the most listeners at once.
      await new Promise<void>((resolve) => {
        release.push(resolve);
        if (release.length === concurrency) for (const r of release.splice(0)) r();
      });
      answered += 1;
      return new Response('{"version":"1.0.0","status":"SUCCESS"}', {
        headers: { 'content-type': 'application/json' },
      });
    };
    const client = createBaasClient({ baseUrl: 'https://provider.test', token: 'tok', fetch });
    const items = Array.from({ length: concurrency }, () => ({
      account: '12345678',
      documentNumber: '52998224725',
      body: { socialName: 'Maria' },
    }));
    const stop = new AbortController();
    let ok = 0;
    for await (const result of updateMany(client, items, { concurrency, signal: stop.signal, rate: 100_000 }))
      if (result.ok) ok += 1;
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(ok).toBe(concurrency);
    expect(answered).toBe(concurrency);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
