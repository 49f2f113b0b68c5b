// 3. pixKeys() over 1,000 pages of 100 keys: flat heap, and keys per second against a hand-written
// cursor loop over raw fetch. Needs `node --expose-gc`.
import { createBaasClient } from '../src/index.js';
import { pagingServer } from './lib/servers.js';
import { summarize, type Summary } from './lib/stats.js';

export interface PaginationResult {
  pages: number;
  perPage: number;
  heapAtPage10MB: number;
  heapAtLastPageMB: number;
  heapGrowthMB: number;
  keysPerSecond: { pixKeys: Summary; rawLoop: Summary; rawLoopWithTimeout: Summary };
  ratioToRawLoop: Summary;
  /** Report only: against a raw loop that also arms a per-request timeout signal, as the client must. */
  ratioToRawLoopWithTimeout: Summary;
}

const gc = (globalThis as { gc?: () => void }).gc;
// Undici frees a Request's abort plumbing from a FinalizationRegistry, whose callbacks run as tasks
// after a collection; without the turns in between, what they release is counted as growth (or, left
// over from the step before, as shrinkage: ±3 MB from run to run).
const heapMB = async (): Promise<number> => {
  for (let i = 0; i < 3; i += 1) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

export async function measurePagination(pages = 1_000, perPage = 100, timingRuns = 21): Promise<PaginationResult> {
  if (!gc) throw new Error('run the benchmark with node --expose-gc (npm run bench does)');
  const server = await pagingServer(pages, perPage);
  try {
    const client = createBaasClient({ baseUrl: server.url, token: 'bench-token-0123456789' });
    let heapAtPage10 = 0;
    let heapAtLast = 0;
    let seen = 0;
    for await (const key of client.pixKeys({ limit: perPage })) {
      void key;
      seen += 1;
      if (seen === perPage * 10) heapAtPage10 = await heapMB();
      if (seen === perPage * pages) heapAtLast = await heapMB();
    }
    if (seen !== pages * perPage) throw new Error(`expected ${pages * perPage} keys, got ${seen}`);

    // Timing on a twentieth of the pages per run, the two loops alternating: more, shorter runs give a
    // steadier median on a shared machine than a few long ones.
    const shortServer = await pagingServer(pages / 20, perPage);
    const ours: number[] = [];
    const raw: number[] = [];
    const rawTimed: number[] = [];
    try {
      const shortClient = createBaasClient({ baseUrl: shortServer.url, token: 'bench-token-0123456789' });
      const headers = { Authorization: 'Bearer bench-token-0123456789', 'User-Agent': 'baas-bench/1.0' };
      const loops = {
        pixKeys: async () => {
          let count = 0;
          for await (const key of shortClient.pixKeys({ limit: perPage })) {
            void key;
            count += 1;
          }
          return count;
        },
        rawLoop: async () => {
          let count = 0;
          let cursor: string | null = null;
          do {
            const url: string = `${shortServer.url}/v2/api/pix/keys/list-keys?limit=${perPage}${cursor ? `&cursor=${cursor}` : ''}`;
            const page = (await (await fetch(url, { headers })).json()) as {
              cursor: { next: string | null };
              data: unknown[];
            };
            for (const key of page.data) {
              void key;
              count += 1;
            }
            cursor = page.cursor.next;
          } while (cursor);
          return count;
        },
        rawLoopWithTimeout: async () => {
          let count = 0;
          let cursor: string | null = null;
          do {
            const url: string = `${shortServer.url}/v2/api/pix/keys/list-keys?limit=${perPage}${cursor ? `&cursor=${cursor}` : ''}`;
            const controller = new AbortController();
            const timer = setTimeout(() => controller.abort(), 10_000);
            const page = (await (await fetch(url, { headers, signal: controller.signal })).json()) as {
              cursor: { next: string | null };
              data: unknown[];
            };
            clearTimeout(timer);
            for (const key of page.data) {
              void key;
              count += 1;
            }
            cursor = page.cursor.next;
          } while (cursor);
          return count;
        },
      };
      await loops.pixKeys();
      await loops.rawLoop();
      await loops.rawLoopWithTimeout();
      const names = ['pixKeys', 'rawLoop', 'rawLoopWithTimeout'] as const;
      const into = { pixKeys: ours, rawLoop: raw, rawLoopWithTimeout: rawTimed };
      for (let run = 0; run < timingRuns; run += 1) {
        // Rotate who goes first, so none always follows another's garbage.
        for (let i = 0; i < names.length; i += 1) {
          const name = names[(i + run) % names.length]!;
          const start = performance.now();
          const count = await loops[name]();
          into[name].push(count / ((performance.now() - start) / 1000));
        }
      }
    } finally {
      await shortServer.close();
    }
    return {
      pages,
      perPage,
      heapAtPage10MB: heapAtPage10,
      heapAtLastPageMB: heapAtLast,
      heapGrowthMB: heapAtLast - heapAtPage10,
      keysPerSecond: { pixKeys: summarize(ours), rawLoop: summarize(raw), rawLoopWithTimeout: summarize(rawTimed) },
      // Time per key, ours over raw: above 1 means slower.
      ratioToRawLoop: summarize(ours.map((value, i) => raw[i]! / value)),
      ratioToRawLoopWithTimeout: summarize(ours.map((value, i) => rawTimed[i]! / value)),
    };
  } finally {
    await server.close();
  }
}
