// The sandbox beside Prism, in one run: start-up, requests per second (in process and over HTTP,
// the same GET list-keys?limit=50 with the same client headers) and heap with 100,000 keys.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { startMock } from '../src/testing/mock.js';
import { createSandbox, SANDBOX_LIMITS, type Sandbox } from '../src/sandbox/index.js';
import { summarize, type Summary } from './lib/stats.js';
import { focused } from './lib/failure.js';
import { httpRound, throughput, viaFetch } from './lib/throughput.js';

const PATH = '/v2/api/pix/keys/list-keys?limit=50';
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
// The JS heap and the ArrayBuffers beside it: the sandbox keeps its keys' bytes in Buffers.
const heapMB = (): number => {
  gc();
  gc();
  const memory = process.memoryUsage();
  return (memory.heapUsed + memory.arrayBuffers) / 1024 / 1024;
};

/**
 * The sandbox served over HTTP in a process of its own, as Prism runs in its own: the client's fetch
 * does not share its thread. Its bare listen(), without the command line's request log in front
 * (Prism is measured without it too).
 */
async function sandboxProcess(): Promise<{ url: string; token: string; stop(): Promise<void> }> {
  const script = [
    `import { createSandbox } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'sandbox', 'index.ts')).href)};`,
    "const sandbox = createSandbox({ seed: 'bench', clients: 1, keysPerAccount: 5000 });",
    'const running = await sandbox.listen({ port: 0 });',
    "for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => void running.stop().then(() => process.exit(0)));",
    'console.log(`Sandbox: ${running.url} Bearer ${sandbox.clients[0].token} Ctrl-C`);',
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  process.once('exit', () => child.kill('SIGKILL'));
  let out = '';
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Sandbox: (http:\/\/\S+)/.exec(out)?.[1];
      const token = /Bearer (sbx_[0-9a-f]+)/.exec(out)?.[1];
      if (url && token && out.includes('Ctrl-C')) resolve({ url, token });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code}):\n${out}`)));
  });
  // Its request log is not part of the measurement.
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  return { ...ready, stop };
}

const headersFor = (sandbox: Sandbox) => ({
  authorization: `Bearer ${sandbox.clients[0]!.token}`,
  'user-agent': 'bench/1',
  accept: 'application/json, application/problem+json',
});

export interface SandboxBench {
  /**
   * `toFirstPage10k`: `createSandbox` with 10,000 keys and its first page read in process (issue 27's
   * figure); `sandbox10k`: `createSandbox` alone; `prism` and `prismToFirstPage`: Prism until listening,
   * and until its first page is read over HTTP.
   */
  startMs: {
    sandboxFirst: number;
    sandbox10k: Summary;
    toFirstPage10k: Summary;
    prism: Summary;
    prismToFirstPage: Summary;
  };
  /** `prism` and `http`: through node:http (the servers' throughput); `prismFetch` and `httpFetch`: through Node's fetch. */
  requestsPerSecond: {
    prism: Summary;
    inProcess: Summary;
    inProcessUncached: Summary;
    http: Summary;
    prismFetch: Summary;
    httpFetch: Summary;
  };
  /**
   * Requests per second over Prism's, taken per round (each round measures all of them, one after
   * another); `startToFirstPage`: Prism's median time to its first page over the sandbox's.
   */
  ratio: {
    inProcess: Summary;
    inProcessUncached: Summary;
    http: Summary;
    httpFetch: Summary;
    startToFirstPage: number;
  };
  heap: {
    baselineMB: number;
    with100kMB: number;
    walkAtPage10MB: number;
    walkAtEndMB: number;
    walkGrowthMB: number;
    keysWalked: number;
  };
}

export interface SandboxMemory {
  /** Heap and array buffers a sandbox adds per 100,000 keys (250,000 keys in 5 accounts: the keys' share). */
  perHundredThousandKeysMB: number;
  /** The largest sandbox the limits allow, in its most costly shape (100,000 accounts of 2 keys: 200,000 keys). */
  largestMB: number;
  largest: { clients: number; accountsPerClient: number; keysPerAccount: number };
}

/** What a sandbox holds once built (after GC), keeping it alive until measured. */
function memoryOf(options: Parameters<typeof createSandbox>[0]): number {
  const before = heapMB();
  const sandbox = createSandbox(options);
  const after = heapMB();
  if (sandbox.clients.length !== options!.clients) throw new Error('bench: the sandbox has its clients');
  return after - before;
}

/** Memory per 100,000 keys, and of the largest sandbox `SANDBOX_LIMITS` allows. Needs `--expose-gc`. */
export function measureSandboxMemory(): SandboxMemory {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('bench: run with node --expose-gc');
  // The first sandbox of a process loads Faker: not part of either figure.
  createSandbox({ seed: 'bench-warm', keysPerAccount: 1 });
  const keys = SANDBOX_LIMITS.keys;
  const perHundredThousandKeysMB =
    (memoryOf({ seed: 'bench-mem', clients: 1, accountsPerClient: 5, keysPerAccount: keys / 5 }) / keys) * 100_000;
  const largest = {
    clients: SANDBOX_LIMITS.clients,
    accountsPerClient: SANDBOX_LIMITS.accounts / SANDBOX_LIMITS.clients,
    // The most accounts, and as many keys as they may have in all (a whole number per account).
    keysPerAccount: Math.floor(keys / SANDBOX_LIMITS.accounts),
  };
  const largestMB = memoryOf({ seed: 'bench-largest', ...largest });
  return { perHundredThousandKeysMB, largestMB, largest };
}

const ROUNDS = 5;
const ROUND_MS = 1_000;

/** `createSandbox` with 10,000 keys, then its first page read in process: [creation, to the first page] in ms. */
async function sandboxToFirstPage(seed: string): Promise<[number, number]> {
  const started = performance.now();
  const sandbox = createSandbox({ seed, accountsPerClient: 2, keysPerAccount: 5_000 });
  const created = performance.now();
  const response = await sandbox.fetch(`http://sandbox.test${PATH}`, { headers: headersFor(sandbox) });
  const page = (await response.json()) as { data: unknown[] };
  if (response.status !== 200 || page.data.length !== 50)
    throw new Error(`bench: the sandbox's first page: ${response.status}`);
  return [created - started, performance.now() - started];
}

export async function measureSandbox(): Promise<SandboxBench> {
  // Start: the first call also loads Faker; then the figure a test pays per sandbox.
  const sandboxFirst = (await sandboxToFirstPage('bench-first'))[0];
  const starts: number[] = [];
  const toFirstPage: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const [created, firstPage] = await sandboxToFirstPage(`bench-${i}`);
    starts.push(created);
    toFirstPage.push(firstPage);
  }
  const prismStarts: number[] = [];
  const prismToFirstPage: number[] = [];
  const prisms = [];
  for (let i = 0; i < 3; i += 1) {
    const t = performance.now();
    const mock = await startMock();
    prismStarts.push(performance.now() - t);
    const response = await fetch(`${mock.url}${PATH}`, {
      headers: { authorization: 'Bearer bench-token', 'user-agent': 'bench/1', accept: 'application/json' },
    });
    await response.arrayBuffer();
    prismToFirstPage.push(performance.now() - t);
    if (response.status !== 200) throw new Error(`bench: Prism's first page: ${response.status}`);
    if (i < 2) await mock.stop();
    else prisms.push(mock);
  }
  const prism = prisms[0]!;

  const sandbox = createSandbox({ seed: 'bench', clients: 1, accountsPerClient: 2, keysPerAccount: 5_000 });
  const headers = headersFor(sandbox);
  const prismHeaders = { ...headers, authorization: 'Bearer bench-token' };
  let running: Awaited<ReturnType<typeof sandboxProcess>> | undefined;
  const rps = {
    prism: [] as number[],
    prismFetch: [] as number[],
    inProcess: [] as number[],
    inProcessUncached: [] as number[],
    http: [] as number[],
    httpFetch: [] as number[],
  };
  try {
    running = await sandboxProcess();
    const httpHeaders = { ...headers, authorization: `Bearer ${running.token}` };
    // Every page of the 10,000 keys in turn (200 pages), so each request builds its page: the cost of a
    // walk seen once.
    const cursors: string[] = [''];
    for (;;) {
      const response = await sandbox.fetch(
        new Request(`http://sandbox.test${PATH}${cursors.at(-1) ? `&cursor=${cursors.at(-1)}` : ''}`, { headers }),
      );
      const next = ((await response.json()) as { cursor: { next: string | null } }).cursor.next;
      if (!next) break;
      cursors.push(next);
    }
    let turn = 0;
    // Interleaved rounds, so load from other work hits all of them alike.
    for (let round = 0; round < ROUNDS; round += 1) {
      rps.prism.push(await httpRound('Prism over node:http', `${prism.url}${PATH}`, prismHeaders, ROUND_MS, 4));
      rps.prismFetch.push(
        await throughput(
          "Prism through Node's fetch",
          viaFetch(() => fetch(`${prism.url}${PATH}`, { headers: prismHeaders })),
          ROUND_MS,
          4,
        ),
      );
      // In process, called as the client calls its fetch: `fetch(url, init)`.
      rps.inProcess.push(
        await throughput(
          'the sandbox in process',
          viaFetch(() => sandbox.fetch(`http://sandbox.test${PATH}`, { headers })),
          ROUND_MS,
          1,
        ),
      );
      rps.inProcessUncached.push(
        await throughput(
          'the sandbox in process, every page new',
          viaFetch(() => {
            const cursor = cursors[turn++ % cursors.length];
            return sandbox.fetch(`http://sandbox.test${PATH}${cursor ? `&cursor=${cursor}` : ''}`, { headers });
          }),
          ROUND_MS,
          1,
        ),
      );
      rps.http.push(await httpRound('the sandbox over node:http', `${running.url}${PATH}`, httpHeaders, ROUND_MS, 4));
      rps.httpFetch.push(
        await throughput(
          "the sandbox through Node's fetch",
          viaFetch(() => fetch(`${running!.url}${PATH}`, { headers: httpHeaders })),
          ROUND_MS,
          4,
        ),
      );
    }
  } finally {
    await running?.stop();
    await prism.stop();
  }
  const perRound = (ours: number[], theirs: number[]) => summarize(ours.map((value, i) => value / theirs[i]!));
  const ratio = {
    inProcess: perRound(rps.inProcess, rps.prism),
    inProcessUncached: perRound(rps.inProcessUncached, rps.prism),
    http: perRound(rps.http, rps.prism),
    httpFetch: perRound(rps.httpFetch, rps.prismFetch),
    startToFirstPage: summarize(prismToFirstPage).median / summarize(toFirstPage).median,
  };

  // Memory: 100,000 keys (10 accounts of 10,000), then a full walk at the maximum page size.
  const baselineMB = heapMB();
  const big = createSandbox({ seed: 'bench-100k', accountsPerClient: 10, keysPerAccount: 10_000 });
  const with100kMB = heapMB() - baselineMB;
  const bigHeaders = headersFor(big);
  let cursor: string | null = null;
  let pages = 0;
  let keysWalked = 0;
  let walkAtPage10MB = 0;
  do {
    const response: Response = await big.fetch(
      new Request(`http://sandbox.test/v2/api/pix/keys/list-keys?limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: bigHeaders,
      }),
    );
    const page = (await response.json()) as { cursor: { next: string | null }; data: unknown[] };
    keysWalked += page.data.length;
    cursor = page.cursor.next;
    pages += 1;
    if (pages === 10) walkAtPage10MB = heapMB();
  } while (cursor);
  const walkAtEndMB = heapMB();
  // Alive until here: otherwise the sandbox itself may be collected before the last figure and hide growth.
  if (big.clients.length !== 1) throw new Error('bench: the 100,000-key sandbox has one client');

  return {
    startMs: {
      sandboxFirst,
      sandbox10k: summarize(starts),
      toFirstPage10k: summarize(toFirstPage),
      prism: summarize(prismStarts),
      prismToFirstPage: summarize(prismToFirstPage),
    },
    requestsPerSecond: {
      prism: summarize(rps.prism),
      inProcess: summarize(rps.inProcess),
      inProcessUncached: summarize(rps.inProcessUncached),
      http: summarize(rps.http),
      prismFetch: summarize(rps.prismFetch),
      httpFetch: summarize(rps.httpFetch),
    },
    ratio,
    heap: {
      baselineMB,
      with100kMB,
      walkAtPage10MB,
      walkAtEndMB,
      walkGrowthMB: walkAtEndMB - walkAtPage10MB,
      keysWalked,
    },
  };
}

// A focused run, wired as in `npm run bench`: `node --expose-gc --import tsx bench/sandbox.ts`;
// `… bench/sandbox.ts --memory` measures the memory figures only (seconds, no Prism, no timings).
const printMemory = (memory: SandboxMemory) =>
  console.log(
    `memory: ${memory.perHundredThousandKeysMB.toFixed(1)} MB per 100,000 keys; the largest allowed sandbox (${memory.largest.clients} × ${memory.largest.accountsPerClient} × ${memory.largest.keysPerAccount}) ${memory.largestMB.toFixed(1)} MB`,
  );
const f = (s: Summary, digits = 0) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--memory')) {
  await focused(async () => printMemory(measureSandboxMemory()));
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await focused(async () => {
    const { loadavg } = await import('node:os');
    const before = loadavg()[0]!;
    const result = await measureSandbox();
    const rps = result.requestsPerSecond;
    console.log(`load ${before.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
    console.log(
      `start ms: 10,000 keys to the first page ${f(result.startMs.toFirstPage10k, 2)} (createSandbox ${f(result.startMs.sandbox10k, 2)}; first of the process ${result.startMs.sandboxFirst.toFixed(0)}); Prism to its first page ${f(result.startMs.prismToFirstPage)}: ${result.ratio.startToFirstPage.toFixed(0)} ×`,
    );
    console.log(
      `req/s: Prism ${f(rps.prism)}; in process ${f(rps.inProcess)}; in process, every page new ${f(rps.inProcessUncached)}; HTTP ${f(rps.http)}`,
    );
    console.log(`req/s through Node's fetch: Prism ${f(rps.prismFetch)}; sandbox over HTTP ${f(rps.httpFetch)}`);
    console.log(
      `ratios to Prism, per round: in process ${f(result.ratio.inProcess, 1)}, every page new ${f(result.ratio.inProcessUncached, 1)}, HTTP ${f(result.ratio.http, 1)}; HTTP through fetch ${f(result.ratio.httpFetch, 1)}`,
    );
    console.log(
      `heap: 100,000 keys ${result.heap.with100kMB.toFixed(2)} MB; walk growth ${result.heap.walkGrowthMB.toFixed(2)} MB over ${result.heap.keysWalked} keys`,
    );
    printMemory(measureSandboxMemory());
  });
}
