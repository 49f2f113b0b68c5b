// The sandbox beside Prism, in one run: start-up, requests per second (in process and over HTTP,
// the same GET list-keys?limit=50 with the same client headers) and heap with 100,000 keys.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { startMock } from '../src/testing/mock.js';
import { createSandbox, type Sandbox } from '../src/sandbox/index.js';
import { summarize, type Summary } from './lib/stats.js';

const PATH = '/v2/api/pix/keys/list-keys?limit=50';
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const heapMB = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

/** `npm run sandbox` in a process of its own, as Prism runs in its own: the client's fetch does not share its thread. */
async function sandboxProcess(): Promise<{ url: string; token: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'sandbox.ts'), '--port', '0', '--seed', 'bench', '--clients', '1', '--keys', '5000', '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM'))));
  process.once('exit', () => child.kill('SIGKILL'));
  let out = '';
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Sandbox: (http:\/\/\S+)/.exec(out)?.[1];
      const token = /Bearer (sbx_[0-9a-f]+)/.exec(out)?.[1];
      if (url && token && out.includes('Ctrl-C')) resolve({ url, token });
    });
    child.once('exit', (code) => reject(new Error(`npm run sandbox exited (${code}):\n${out}`)));
  });
  // Its request log is not part of the measurement.
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  return { ...ready, stop };
}

/** Requests per second of `send` over `ms`, `parallel` loops at once, every body read. */
async function throughput(send: () => Promise<Response>, ms: number, parallel: number): Promise<number> {
  for (let i = 0; i < 50; i += 1) await (await send()).arrayBuffer();
  let done = 0;
  const end = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < end) {
        const response = await send();
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`bench: status ${response.status}`);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const headersFor = (sandbox: Sandbox) => ({ authorization: `Bearer ${sandbox.clients[0]!.token}`, 'user-agent': 'bench/1', accept: 'application/json, application/problem+json' });

export interface SandboxBench {
  startMs: { sandboxFirst: number; sandbox10k: Summary; prism: Summary };
  requestsPerSecond: { prism: Summary; inProcess: Summary; inProcessUncached: Summary; http: Summary };
  ratio: { inProcess: number; inProcessUncached: number; http: number };
  heap: { baselineMB: number; with100kMB: number; walkAtPage10MB: number; walkAtEndMB: number; walkGrowthMB: number; keysWalked: number };
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
    const response = await sandbox.fetch(new Request(`http://sandbox.test${PATH}${cursors.at(-1) ? `&cursor=${cursors.at(-1)}` : ''}`, { headers }));
    const next = ((await response.json()) as { cursor: { next: string | null } }).cursor.next;
    if (!next) break;
    cursors.push(next);
  }
  let turn = 0;
  const httpRps: number[] = [];
  try {
    // Interleaved rounds, so load from other work hits all three alike.
    for (let round = 0; round < 5; round += 1) {
      prismRps.push(await throughput(() => fetch(`${prism.url}${PATH}`, { headers: { ...headers, authorization: 'Bearer bench-token' } }), 1_000, 4));
      inProcessRps.push(await throughput(() => sandbox.fetch(new Request(`http://sandbox.test${PATH}`, { headers })), 1_000, 1));
      uncachedRps.push(
        await throughput(() => {
          const cursor = cursors[turn++ % cursors.length];
          return sandbox.fetch(new Request(`http://sandbox.test${PATH}${cursor ? `&cursor=${cursor}` : ''}`, { headers }));
        }, 1_000, 1),
      );
      httpRps.push(await throughput(() => fetch(`${running.url}${PATH}`, { headers: httpHeaders }), 1_000, 4));
    }
  } finally {
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
    const response: Response = await big.fetch(new Request(`http://sandbox.test/v2/api/pix/keys/list-keys?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers: bigHeaders }));
    const page = (await response.json()) as { cursor: { next: string | null }; data: unknown[] };
    keysWalked += page.data.length;
    cursor = page.cursor.next;
    pages += 1;
    if (pages === 10) walkAtPage10MB = heapMB();
  } while (cursor);
  const walkAtEndMB = heapMB();

  const prismSummary = summarize(prismRps);
  const inProcess = summarize(inProcessRps);
  const http = summarize(httpRps);
  return {
    startMs: { sandboxFirst, sandbox10k: summarize(starts), prism: summarize(prismStarts) },
    requestsPerSecond: { prism: prismSummary, inProcess, inProcessUncached: summarize(uncachedRps), http },
    ratio: { inProcess: inProcess.median / prismSummary.median, inProcessUncached: summarize(uncachedRps).median / prismSummary.median, http: http.median / prismSummary.median },
    heap: { baselineMB, with100kMB, walkAtPage10MB, walkAtEndMB, walkGrowthMB: walkAtEndMB - walkAtPage10MB, keysWalked },
  };
}
