// The sandbox beside Prism, in one run: start-up, requests per second (in process and over HTTP,
// the same GET list-keys?limit=50 with the same client headers) and heap with 100,000 keys.
import { spawn } from 'node:child_process';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { startMock } from '../src/testing/mock.js';
import { createSandbox, SANDBOX_LIMITS, type Sandbox } from '../src/sandbox/index.js';
import { summarize, type Summary } from './lib/stats.js';

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

/** Sends one request, reads its whole body and resolves its status. */
type Send = () => Promise<number>;

const viaFetch =
  (send: () => Promise<Response>): Send =>
  async () => {
    const response = await send();
    await response.arrayBuffer();
    return response.status;
  };

/**
 * GET over node:http with a keep-alive agent: a load generator that costs the bench process a
 * fraction of what Node's fetch does (~0.3–0.4 ms of CPU a request on this machine under load),
 * so that the figure is the server's throughput, not the client's. Both servers get the same.
 */
function viaHttp(url: string, headers: Record<string, string>, sockets: number): { send: Send; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const send: Send = () =>
    new Promise<number>((resolve, reject) => {
      const request = httpGet(url, { agent, headers }, (response) => {
        response.on('data', () => undefined);
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', reject);
      });
      request.once('error', reject);
    });
  return { send, close: () => agent.destroy() };
}

/** Requests per second of `send` over `ms`, `parallel` loops at once, every body read. */
async function throughput(send: Send, ms: number, parallel: number): Promise<number> {
  for (let i = 0; i < 50; i += 1) await send();
  let done = 0;
  const end = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < end) {
        const status = await send();
        if (status !== 200) throw new Error(`bench: status ${status}`);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const headersFor = (sandbox: Sandbox) => ({
  authorization: `Bearer ${sandbox.clients[0]!.token}`,
  'user-agent': 'bench/1',
  accept: 'application/json, application/problem+json',
});

export interface SandboxBench {
  startMs: { sandboxFirst: number; sandbox10k: Summary; prism: Summary };
  /** `prism` and `http`: through node:http (the servers' throughput); `prismFetch` and `httpFetch`: through Node's fetch. */
  requestsPerSecond: {
    prism: Summary;
    inProcess: Summary;
    inProcessUncached: Summary;
    http: Summary;
    prismFetch: Summary;
    httpFetch: Summary;
  };
  ratio: { inProcess: number; inProcessUncached: number; http: number; httpFetch: number };
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
  /** The largest sandbox the limits allow, in its most costly shape (10,000 accounts of 25 keys: 250,000 keys). */
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
    keysPerAccount: keys / SANDBOX_LIMITS.accounts,
  };
  const largestMB = memoryOf({ seed: 'bench-largest', ...largest });
  return { perHundredThousandKeysMB, largestMB, largest };
}

export async function measureSandbox(): Promise<SandboxBench> {
  // Start: the first call also loads Faker; then the figure a test pays per sandbox.
  let t = performance.now();
  createSandbox({ seed: 'bench-first', accountsPerClient: 2, keysPerAccount: 5_000 });
  const sandboxFirst = performance.now() - t;
  const starts: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    t = performance.now();
    createSandbox({ seed: `bench-${i}`, accountsPerClient: 2, keysPerAccount: 5_000 });
    starts.push(performance.now() - t);
  }
  const prismStarts: number[] = [];
  const prisms = [];
  for (let i = 0; i < 3; i += 1) {
    t = performance.now();
    const mock = await startMock();
    prismStarts.push(performance.now() - t);
    if (i < 2) await mock.stop();
    else prisms.push(mock);
  }
  const prism = prisms[0]!;

  const sandbox = createSandbox({ seed: 'bench', clients: 1, accountsPerClient: 2, keysPerAccount: 5_000 });
  const headers = headersFor(sandbox);
  const running = await sandboxProcess();
  const httpHeaders = { ...headers, authorization: `Bearer ${running.token}` };
  const prismRps: number[] = [];
  const inProcessRps: number[] = [];
  const uncachedRps: number[] = [];
  // Every page of the 10,000 keys in turn (200 pages, more than the 32 the sandbox keeps serialized),
  // so each request builds its page: the cost of a walk seen once.
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
  const httpRps: number[] = [];
  const prismFetchRps: number[] = [];
  const httpFetchRps: number[] = [];
  const prismHttp = viaHttp(`${prism.url}${PATH}`, { ...headers, authorization: 'Bearer bench-token' }, 4);
  const sandboxHttp = viaHttp(`${running.url}${PATH}`, httpHeaders, 4);
  try {
    // Interleaved rounds, so load from other work hits all of them alike.
    for (let round = 0; round < 5; round += 1) {
      prismRps.push(await throughput(prismHttp.send, 1_000, 4));
      prismFetchRps.push(
        await throughput(
          viaFetch(() =>
            fetch(`${prism.url}${PATH}`, { headers: { ...headers, authorization: 'Bearer bench-token' } }),
          ),
          1_000,
          4,
        ),
      );
      // In process, called as the client calls its fetch: `fetch(url, init)`.
      inProcessRps.push(
        await throughput(
          viaFetch(() => sandbox.fetch(`http://sandbox.test${PATH}`, { headers })),
          1_000,
          1,
        ),
      );
      uncachedRps.push(
        await throughput(
          viaFetch(() => {
            const cursor = cursors[turn++ % cursors.length];
            return sandbox.fetch(`http://sandbox.test${PATH}${cursor ? `&cursor=${cursor}` : ''}`, { headers });
          }),
          1_000,
          1,
        ),
      );
      httpRps.push(await throughput(sandboxHttp.send, 1_000, 4));
      httpFetchRps.push(
        await throughput(
          viaFetch(() => fetch(`${running.url}${PATH}`, { headers: httpHeaders })),
          1_000,
          4,
        ),
      );
    }
  } finally {
    prismHttp.close();
    sandboxHttp.close();
    await running.stop();
    await prism.stop();
  }

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

  const prismSummary = summarize(prismRps);
  const inProcess = summarize(inProcessRps);
  const http = summarize(httpRps);
  const prismFetch = summarize(prismFetchRps);
  const httpFetch = summarize(httpFetchRps);
  return {
    startMs: { sandboxFirst, sandbox10k: summarize(starts), prism: summarize(prismStarts) },
    requestsPerSecond: {
      prism: prismSummary,
      inProcess,
      inProcessUncached: summarize(uncachedRps),
      http,
      prismFetch,
      httpFetch,
    },
    ratio: {
      inProcess: inProcess.median / prismSummary.median,
      inProcessUncached: summarize(uncachedRps).median / prismSummary.median,
      http: http.median / prismSummary.median,
      httpFetch: httpFetch.median / prismFetch.median,
    },
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
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--memory')) {
  printMemory(measureSandboxMemory());
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loadavg } = await import('node:os');
  const before = loadavg()[0]!;
  const result = await measureSandbox();
  const f = (s: Summary) => `${Math.round(s.median)} (${Math.round(s.min)}–${Math.round(s.max)})`;
  const rps = result.requestsPerSecond;
  console.log(`load ${before.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
  console.log(
    `start ms: sandbox 10k ${result.startMs.sandbox10k.median.toFixed(2)} (first ${result.startMs.sandboxFirst.toFixed(0)}), Prism ${Math.round(result.startMs.prism.median)}`,
  );
  console.log(
    `req/s: Prism ${f(rps.prism)}; in process ${f(rps.inProcess)}; in process, every page new ${f(rps.inProcessUncached)}; HTTP ${f(rps.http)}`,
  );
  console.log(`req/s through Node's fetch: Prism ${f(rps.prismFetch)}; sandbox over HTTP ${f(rps.httpFetch)}`);
  console.log(
    `ratios: in process ${result.ratio.inProcess.toFixed(1)} ×, every page new ${result.ratio.inProcessUncached.toFixed(1)} ×, HTTP ${result.ratio.http.toFixed(1)} ×; HTTP through fetch ${result.ratio.httpFetch.toFixed(1)} ×`,
  );
  console.log(
    `heap: 100,000 keys ${result.heap.with100kMB.toFixed(2)} MB; walk growth ${result.heap.walkGrowthMB.toFixed(2)} MB over ${result.heap.keysWalked} keys`,
  );
  printMemory(measureSandboxMemory());
}
