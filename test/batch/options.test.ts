// The options of updateMany and exportKeys are checked at the call, naming the option and its rule,
// before anything is pulled or sent.
import { describe, expect, it } from 'vitest';
import { exportKeyPages } from '../../src/batch/export-keys.js';
import { createBaasClient, exportKeys, updateMany } from '../../src/index.js';
import { BASE_URL, sandboxClient } from './support.js';

describe('options of updateMany', () => {
  const cases: Array<[string, Record<string, unknown>, typeof RangeError | typeof TypeError]> = [
    ['concurrency', { concurrency: 0 }, RangeError],
    ['concurrency', { concurrency: 257 }, RangeError],
    ['concurrency', { concurrency: 2.5 }, RangeError],
    ['concurrency', { concurrency: '8' }, RangeError],
    ['rate', { rate: 0 }, RangeError],
    ['rate', { rate: -1 }, RangeError],
    ['rate', { rate: Number.NaN }, RangeError],
    ['rate', { rate: Number.POSITIVE_INFINITY }, RangeError],
    ['limiter', { limiter: {} }, TypeError],
    ['limiter', { limiter: () => undefined }, TypeError],
    ['limiter', { limiter: null }, TypeError],
    ['signal', { signal: {} }, TypeError],
    ['inFlight', { inFlight: 'cancel' }, RangeError],
    ['onProgress', { onProgress: 'log' }, TypeError],
    ['retry.maxAttempts', { retry: { maxAttempts: 0 } }, RangeError],
    ['retry', { retry: 3 }, TypeError],
    ['retry', { retry: null }, TypeError],
  ];
  for (const [option, options, kind] of cases) {
    it(`refuses ${JSON.stringify(options)}, naming ${option}, and sends nothing`, () => {
      let sent = 0;
      const { token } = sandboxClient();
      const fetch = async () => {
        sent += 1;
        return new Response();
      };
      const client = createBaasClient({ baseUrl: BASE_URL, token, fetch });
      const call = () => updateMany(client, [], options);
      expect(call).toThrow(kind);
      expect(call).toThrow(option);
      expect(sent).toBe(0);
    });
  }

  it('accepts the bounds of each rule', () => {
    const { client } = sandboxClient();
    for (const options of [{ concurrency: 1 }, { concurrency: 256 }, { rate: 0.001 }, { rate: 100_000 }, {}])
      expect(() => updateMany(client, [], options)).not.toThrow();
  });

  // A JavaScript caller has no type check: `concurency: 2` or `rateLimit: 5` would run at the defaults.
  it('refuses a misspelt option naming the one meant, and any other member', () => {
    const { client } = sandboxClient();
    expect(() => updateMany(client, [], { concurency: 2 } as never)).toThrow(
      /: concurency is not an option; did you mean concurrency\?/,
    );
    expect(() => updateMany(client, [], { rateLimit: 5 } as never)).toThrow(/did you mean rate\?/);
    expect(() => updateMany(client, [], { inflight: 'abort' } as never)).toThrow(TypeError);
    expect(() => updateMany(client, [], { concurrency: 2, jobName: 'nightly' } as never)).toThrow(
      /: jobName is not an option \(known: /,
    );
  });

  it('refuses a client or items of the wrong kind, naming them', () => {
    const { client } = sandboxClient();
    expect(() => updateMany({} as never, [])).toThrow(/client/);
    expect(() => updateMany(client, 42 as never)).toThrow(/items/);
    expect(() => updateMany(client, [], 'fast' as never)).toThrow(/options/);
    expect(() => updateMany(client, [], null as never)).toThrow(TypeError);
    expect(() => updateMany(client, [], null as never)).toThrow(/options/);
    expect(() => updateMany(null as never, [])).toThrow(/client/);
    expect(() => updateMany(client, null as never)).toThrow(/items/);
  });
});

describe('options of exportKeys and exportKeyPages', () => {
  for (const walk of [exportKeys, exportKeyPages]) {
    it(`${walk.name} refuses a bad limit, after or rate, naming it`, () => {
      const { client } = sandboxClient();
      expect(() => walk(client, { limit: 0 })).toThrow(RangeError);
      expect(() => walk(client, { limit: 0 })).toThrow('limit');
      expect(() => walk(client, { limit: 1.5 })).toThrow('limit');
      expect(() => walk(client, { after: '' })).toThrow(TypeError);
      expect(() => walk(client, { after: '' })).toThrow('after');
      expect(() => walk(client, { rate: 0 })).toThrow('rate');
      expect(() => walk({} as never)).toThrow('client');
      expect(() => walk(null as never)).toThrow('client');
      // A limit that is not a number is refused for that, before the contract's range is checked.
      expect(() => walk(client, { limit: '5' as never })).toThrow(RangeError);
      expect(() => walk(client, { limit: '5' as never })).toThrow(/limit.*number/);
      expect(() => walk(client, { after: 5 as never })).toThrow(TypeError);
      expect(() => walk(client, { after: 5 as never })).toThrow('after');
      expect(() => walk(client, null as never)).toThrow(/options/);
      // The command line's (and 0.2's) page size, and a typo, are named with the option meant.
      expect(() => walk(client, { pageSize: 50 } as never)).toThrow(
        /: pageSize is not an option; did you mean limit\?/,
      );
      expect(() => walk(client, { limt: 50 } as never)).toThrow(/did you mean limit\?/);
      expect(() => walk(client, { onpage: () => undefined } as never)).toThrow(/did you mean onPage\?/);
    });
  }
});
