// 1. Per-request overhead: raw fetch, bare openapi-fetch (with and without a per-attempt timeout
// signal) and createBaasClient, interleaved A B C D E. The budget compares the client with bare
// openapi-fetch given a timeout signal: the least any client with a timeout must pay.
import createClient from 'openapi-fetch';
import { createBaasClient } from '../src/index.js';
import type { paths } from '../src/generated/schema.js';
import { exampleServer } from './lib/servers.js';
import { summarize, type Summary } from './lib/stats.js';
import { focused } from './lib/failure.js';

export interface OverheadResult {
  perRequestUs: Record<
    'rawFetch' | 'rawFetchWithTimeout' | 'openapiFetch' | 'openapiFetchWithTimeout' | 'baasClient',
    Summary
  >;
  ratioToRawFetch: Record<'rawFetchWithTimeout' | 'openapiFetch' | 'openapiFetchWithTimeout' | 'baasClient', Summary>;
  /** The budget line: ours / bare openapi-fetch with a per-attempt timeout signal. */
  ratioToOpenapiFetchWithTimeout: Summary;
  ratioToOpenapiFetch: Summary;
  rounds: number;
  requestsPerRound: number;
}

const TOKEN = 'bench-token-0123456789';
const USER_AGENT = 'baas-bench/1.0';

// 41 rounds of 200: on a shared 2-core machine one round in four or five is hit by another process or a
// GC pause, and the median of a few more rounds moves less from run to run than longer rounds do.
export async function measureOverhead(rounds = 41, perRound = 200): Promise<OverheadResult> {
  const server = await exampleServer();
  try {
    const url = `${server.url}/v2/api/pix/keys/list-keys`;
    const headers = {
      Authorization: `Bearer ${TOKEN}`,
      'User-Agent': USER_AGENT,
      Accept: 'application/json, application/problem+json',
    };
    const bare = createClient<paths>({ baseUrl: server.url, headers });
    const ours = createBaasClient({ baseUrl: server.url, token: TOKEN, userAgent: USER_AGENT });

    const callers = {
      rawFetch: async () => {
        const response = await fetch(url, { headers });
        return (await response.json()) as unknown;
      },
      // Not a budget line: what the per-attempt timeout alone costs a raw fetch.
      rawFetchWithTimeout: async () => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 10_000);
        const response = await fetch(url, { headers, signal: controller.signal });
        const body = (await response.json()) as unknown;
        clearTimeout(timer);
        return body;
      },
      openapiFetch: async () =>
        (await bare.GET('/v2/api/pix/keys/list-keys', { params: { header: { 'User-Agent': USER_AGENT } } })).data,
      // The budget's baseline: openapi-fetch with what any client with a timeout must add.
      openapiFetchWithTimeout: async () => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 10_000);
        try {
          return (
            await bare.GET('/v2/api/pix/keys/list-keys', {
              params: { header: { 'User-Agent': USER_AGENT } },
              signal: controller.signal,
            })
          ).data;
        } finally {
          clearTimeout(timer);
        }
      },
      baasClient: () => ours.listPixKeys(),
    };
    const names = Object.keys(callers) as (keyof typeof callers)[];

    // Warm up the connection pool and the JIT for each caller.
    for (const name of names) for (let i = 0; i < 300; i += 1) await callers[name]();

    const samples: Record<keyof typeof callers, number[]> = {
      rawFetch: [],
      rawFetchWithTimeout: [],
      openapiFetch: [],
      openapiFetchWithTimeout: [],
      baasClient: [],
    };
    for (let round = 0; round < rounds; round += 1) {
      // Rotate who goes first so no caller always inherits a warmer or colder machine.
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      for (const name of order) {
        const start = process.hrtime.bigint();
        for (let i = 0; i < perRound; i += 1) await callers[name]();
        samples[name].push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
      }
    }
    const ratio = (a: number[], b: number[]) => summarize(a.map((value, i) => value / b[i]!));
    return {
      perRequestUs: {
        rawFetch: summarize(samples.rawFetch),
        rawFetchWithTimeout: summarize(samples.rawFetchWithTimeout),
        openapiFetch: summarize(samples.openapiFetch),
        openapiFetchWithTimeout: summarize(samples.openapiFetchWithTimeout),
        baasClient: summarize(samples.baasClient),
      },
      ratioToRawFetch: {
        rawFetchWithTimeout: ratio(samples.rawFetchWithTimeout, samples.rawFetch),
        openapiFetch: ratio(samples.openapiFetch, samples.rawFetch),
        openapiFetchWithTimeout: ratio(samples.openapiFetchWithTimeout, samples.rawFetch),
        baasClient: ratio(samples.baasClient, samples.rawFetch),
      },
      ratioToOpenapiFetchWithTimeout: ratio(samples.baasClient, samples.openapiFetchWithTimeout),
      ratioToOpenapiFetch: ratio(samples.baasClient, samples.openapiFetch),
      rounds,
      requestsPerRound: perRound,
    };
  } finally {
    await server.close();
  }
}

// `node --import tsx bench/overhead.ts`: these figures alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await focused(async () => console.log(JSON.stringify(await measureOverhead(), null, 2)));
}
