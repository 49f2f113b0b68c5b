// 5. Cold start: what a program pays before its first answer. A fresh Node process imports the built
// entry (dist/index.js), creates a client and makes one call to a loopback server; beside it, a fresh
// process imports bare openapi-fetch, creates its client and makes the same call. The two alternate
// (ours first in even rounds, bare first in odd ones), after one unmeasured run each to warm the file
// cache. Each process reports `performance.now()` (ms since it started, Node's own boot included) when
// its answer is in; the parent also times spawn to exit. Ratios are taken per round.
// Alone: `node --import tsx bench/coldstart.ts [runs]` builds dist/ into .artifacts/ and prints the figures.
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { run } from '../scripts/lib/run.mjs';
import { exampleServer } from './lib/servers.js';
import { fmt, summarize, type Summary } from './lib/stats.js';
import { focused } from './lib/failure.js';

export interface ColdStartResult {
  runs: number;
  /** ms from the process's start to its first answer. */
  firstAnswerMs: { ours: Summary; bare: Summary };
  /** ms from spawn to exit, timed by the parent. */
  processMs: { ours: Summary; bare: Summary };
  /** Per round: ours / bare, first answer. */
  ratio: Summary;
}

const TOKEN = 'bench-token-0123456789';

// Each child prints one JSON line; a wrong answer fails the bench rather than timing an error.
const OURS = `const { createBaasClient } = await import('./dist/index.js');
const client = createBaasClient({ baseUrl: process.argv[2], token: '${TOKEN}' });
const page = await client.listPixKeys();
const answered = performance.now();
if (!Array.isArray(page.data)) throw new Error('no page');
console.log(JSON.stringify({ answered }));
`;
const BARE = `const { default: createClient } = await import('openapi-fetch');
const client = createClient({ baseUrl: process.argv[2], headers: { Authorization: 'Bearer ${TOKEN}' } });
const { data } = await client.GET('/v2/api/pix/keys/list-keys');
const answered = performance.now();
if (!Array.isArray(data?.data)) throw new Error('no page');
console.log(JSON.stringify({ answered }));
`;

function once(script: string, baseUrl: string): Promise<{ answered: number; processMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script, baseUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const processMs = performance.now() - started;
      if (code !== 0) reject(new Error(`${script} exited with ${code}:\n${out}`));
      else resolve({ answered: (JSON.parse(out) as { answered: number }).answered, processMs });
    });
  });
}

/** `dir` holds (or gets) a build of the package in `dir/dist`; the children run from there, so `openapi-fetch` resolves to the repository's. */
export async function measureColdStart(
  runs = 15,
  dir = join(repoRoot, '.artifacts', 'bench', 'coldstart'),
): Promise<ColdStartResult> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await run(process.execPath, [join(repoRoot, 'scripts/build.mjs'), '--out-dir', join(dir, 'dist')]);
  const ours = join(dir, 'ours.mjs');
  const bare = join(dir, 'bare.mjs');
  await writeFile(ours, OURS);
  await writeFile(bare, BARE);
  const server = await exampleServer();
  try {
    await once(ours, server.url);
    await once(bare, server.url);
    const times = { ours: [] as number[], bare: [] as number[] };
    const processMs = { ours: [] as number[], bare: [] as number[] };
    const ratios: number[] = [];
    for (let round = 0; round < runs; round += 1) {
      const order = round % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
      const result: Record<string, number> = {};
      for (const who of order) {
        const { answered, processMs: wall } = await once(who === 'ours' ? ours : bare, server.url);
        times[who].push(answered);
        processMs[who].push(wall);
        result[who] = answered;
      }
      ratios.push(result.ours! / result.bare!);
    }
    return {
      runs,
      firstAnswerMs: { ours: summarize(times.ours), bare: summarize(times.bare) },
      processMs: { ours: summarize(processMs.ours), bare: summarize(processMs.bare) },
      ratio: summarize(ratios),
    };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await focused(async () => printColdStart(await measureColdStart(Number(process.argv[2] ?? 15))));
}

function printColdStart(result: ColdStartResult): void {
  const row = (s: Summary) => `${fmt(s.median, 1)} | ${fmt(s.min, 1)} | ${fmt(s.max, 1)}`;
  console.log(`| figure (${result.runs} runs each) | median | min | max |\n|---|---|---|---|`);
  console.log(`| first answer, ours (ms) | ${row(result.firstAnswerMs.ours)} |`);
  console.log(`| first answer, bare openapi-fetch (ms) | ${row(result.firstAnswerMs.bare)} |`);
  console.log(
    `| ours / bare, per round | ${fmt(result.ratio.median)} | ${fmt(result.ratio.min)} | ${fmt(result.ratio.max)} |`,
  );
  console.log(`| process, spawn to exit, ours (ms) | ${row(result.processMs.ours)} |`);
  console.log(`| process, spawn to exit, bare openapi-fetch (ms) | ${row(result.processMs.bare)} |`);
  console.log(JSON.stringify(result));
}
