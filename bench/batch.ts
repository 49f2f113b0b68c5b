// Batch work (updateMany), in one run: (a) throughput against the sandbox limited to 50 requests per
// second, as a share of the limit, with `rate: 50` and with no rate (adaptive concurrency and what the
// answers say); (b) against an unlimited sandbox, updateMany beside a plain Promise.all over chunks of
// the same concurrency, interleaved rounds; (c) heap and RSS while 1,000,000 input lines stream through.
import { createBaasClient, type UpdateItem, updateMany } from '../src/index.js';
import { createSandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { summarize, type Summary } from './lib/stats.js';
import { focused } from './lib/failure.js';

const BASE_URL = 'https://sandbox.baas.example';
const CONCURRENCY = 8;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

function setUp(options: SandboxOptions = {}) {
  const sandbox = createSandbox({ seed: 'bench', accountsPerClient: 500, keysPerAccount: 1, ...options });
  const me = sandbox.clients[0]!;
  const client = createBaasClient({ baseUrl: BASE_URL, token: me.token, fetch: sandbox.fetch });
  const items: UpdateItem[] = me.accounts.map((account, i) => ({
    account: account.account,
    documentNumber: account.documentNumber,
    body: { isPoliticallyExposedPerson: i % 2 === 0 },
  }));
  return { client, items };
}

const repeat = (items: UpdateItem[], count: number) =>
  Array.from({ length: count }, (_, i) => items[i % items.length]!);

export interface RateLimitedRun {
  items: number;
  ok: number;
  seconds: number;
  /** Completed items per second over the limit. */
  shareOfLimit: number;
  requests: number;
  overloaded: number;
  lowestConcurrency: number;
  discoveredLimit: number | null;
}

/**
 * (a) `count` updates against a sandbox allowing `limit` requests per second. `policy`: its answers
 * carry `RateLimit-Policy` (the sandbox of this version sends no rate-limit fields; added here by a
 * fetch in front of it, as a provider that states its limit would).
 */
async function rateLimited(
  limit: number,
  count: number,
  rate: number | undefined,
  policy: boolean,
): Promise<RateLimitedRun> {
  const sandbox = createSandbox({
    seed: 'bench',
    accountsPerClient: 500,
    keysPerAccount: 1,
    rateLimit: { requests: limit },
  });
  const me = sandbox.clients[0]!;
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await sandbox.fetch(input as string, init);
    if (!policy) return response;
    const headers = new Headers(response.headers);
    headers.set('ratelimit-policy', `"default";q=${limit};w=1`);
    if (!headers.has('ratelimit')) headers.set('ratelimit', `"default";r=0;t=1`);
    return new Response(response.body, { status: response.status, headers });
  };
  const client = createBaasClient({ baseUrl: BASE_URL, token: me.token, fetch });
  const items = setUp().items;
  const started = performance.now();
  const run = updateMany(client, repeat(items, count), { concurrency: CONCURRENCY, rate });
  let ok = 0;
  for await (const result of run) if (result.ok) ok += 1;
  const seconds = (performance.now() - started) / 1000;
  const progress = run.progress();
  return {
    items: count,
    ok,
    seconds,
    shareOfLimit: ok / seconds / limit,
    requests: progress.requests,
    overloaded: progress.overloaded,
    lowestConcurrency: progress.lowestConcurrency,
    discoveredLimit: progress.discoveredLimit ?? null,
  };
}

/** (b) The same updates through updateMany and through Promise.all over chunks of CONCURRENCY. */
async function beside(
  count: number,
  rounds: number,
): Promise<{ ratio: Summary; updateManyMs: Summary; chunksMs: Summary }> {
  const { client, items } = setUp();
  const work = repeat(items, count);
  const viaUpdateMany = async () => {
    for await (const result of updateMany(client, work, { concurrency: CONCURRENCY }))
      if (!result.ok) throw result.error;
  };
  const viaChunks = async () => {
    for (let i = 0; i < work.length; i += CONCURRENCY)
      await Promise.all(work.slice(i, i + CONCURRENCY).map((item) => client.updateNaturalPerson(item)));
  };
  const time = async (fn: () => Promise<void>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  await viaUpdateMany();
  await viaChunks();
  const ours: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    // The order alternates each round.
    const [a, b] = round % 2 === 0 ? [await time(viaUpdateMany), await time(viaChunks)] : [0, 0];
    const [d, c] = round % 2 === 1 ? [await time(viaChunks), await time(viaUpdateMany)] : [b, a];
    ours.push(c);
    theirs.push(d);
    ratios.push(c / d);
  }
  return { ratio: summarize(ratios), updateManyMs: summarize(ours), chunksMs: summarize(theirs) };
}

export interface MemoryRun {
  lines: number;
  seconds: number;
  /** Heap used (after a full GC) at each sample, in MB. */
  heapMB: number[];
  rssMB: number[];
  heapGrowthMB: number;
  rssGrowthMB: number;
}

/** (c) 1,000,000 JSON lines, parsed one at a time by a generator, through updateMany against a fetch that answers at once. */
async function memory(lines: number, samples: number): Promise<MemoryRun> {
  const { items } = setUp();
  const answer = JSON.stringify({ version: '1.0.0', status: 'SUCCESS' });
  const fetch = async () => new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } });
  const client = createBaasClient({ baseUrl: BASE_URL, token: 'sbx_benchmark_token_0123456789', fetch });
  const texts = items.map((item) => JSON.stringify(item));
  function* input(): Generator<UpdateItem> {
    for (let i = 0; i < lines; i += 1) yield JSON.parse(texts[i % texts.length]!) as UpdateItem;
  }
  const heapMB: number[] = [];
  const rssMB: number[] = [];
  const sample = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    heapMB.push(m.heapUsed / 1024 / 1024);
    rssMB.push(m.rss / 1024 / 1024);
  };
  const every = Math.floor(lines / samples);
  const started = performance.now();
  let done = 0;
  for await (const result of updateMany(client, input(), { concurrency: CONCURRENCY })) {
    if (!result.ok) throw result.error;
    done += 1;
    if (done % every === 0) sample();
  }
  const seconds = (performance.now() - started) / 1000;
  // Growth from the first sample (the batch under way) to the last.
  return {
    lines,
    seconds,
    heapMB,
    rssMB,
    heapGrowthMB: heapMB.at(-1)! - heapMB[0]!,
    rssGrowthMB: rssMB.at(-1)! - rssMB[0]!,
  };
}

export async function measureBatch(options: { memoryLines?: number } = {}) {
  // 500 updates at 50 a second: about 10 s each. The sandbox's fixed window lets a first second's
  // worth through at once, so a run without pacing can show a little over the limit.
  const withRate = await rateLimited(50, 500, 50, false);
  const statedLimit = await rateLimited(50, 500, undefined, true);
  const unstatedLimit = await rateLimited(50, 500, undefined, false);
  const unlimited = await beside(2_000, 6);
  const mem = await memory(options.memoryLines ?? 1_000_000, 10);
  return { withRate, statedLimit, unstatedLimit, unlimited, memory: mem };
}

// `node --expose-gc --import tsx bench/batch.ts`: these figures alone.
if (process.argv[1]?.endsWith('batch.ts'))
  await focused(async () => console.log(JSON.stringify(await measureBatch(), null, 1)));
