// The guide's shared-limit recipe, run as it is shown: two worker processes (examples/shared-limit/
// worker.ts), each updating half of the customers with 16 requests in flight (alone, far faster than
// the limit), share one limit through a real redis-server. Together they stay under the sandbox's limit
// for their API client: not one 429, and every customer updated.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { createSandbox, type RunningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { spawnTied } from '../support/tied-spawn.js';

const LIMIT = { requests: 20, windowMs: 1000 };
const CUSTOMERS = 80;
const WORKERS = 2;

let redis: RedisServer | undefined;
let sandbox: Sandbox;
let server: RunningSandbox | undefined;
let dir: string | undefined;
const workers: ChildProcess[] = [];
/** The sandbox's answers, from its request log: status (or 'dropped') and when it was logged. */
const answers: { method: string; status: string; at: number }[] = [];

beforeAll(async () => {
  // Up to minutes when redis-server has to be installed first (apt-get).
  redis = await startRedisServer();
  sandbox = createSandbox({ seed: 'shared-limit', accountsPerClient: CUSTOMERS, keysPerAccount: 0, rateLimit: LIMIT });
  server = await sandbox.listen({
    log: (line) => {
      // `PUT /v1/… → HTTP 200 in 1.3 ms`, or `→ dropped in …` (src/sandbox/listen.ts: logLine).
      const [, method = '', status = ''] = /^(\S+) \S+ → (?:HTTP )?(\S+) in /.exec(line) ?? [];
      answers.push({ method, status, at: performance.now() });
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'shared-limit-'));
}, 300_000);

afterAll(async () => {
  for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await server?.stop();
  await redis?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// The parent's own settings must not leak in: this run's VITEST_*, loaders, and any BAAS_* or REDIS_* of the shell.
const baseEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|NODE_OPTIONS|FORCE_COLOR|BAAS_|REDIS_)/.test(name)),
  );

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npx tsx examples/shared-limit/worker.ts FILE` without npx's start-up, tied to this process. */
async function runWorker(input: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawnTied(process.execPath, ['--import', 'tsx', 'examples/shared-limit/worker.ts', input], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const emailOf = (index: number) => `pep-refresh-${index}@exemplo.com.br`;

it('two workers sharing the Redis limit: no 429 from the sandbox, every customer updated', async () => {
  const customers = sandbox.clients[0]!.accounts;
  expect(customers).toHaveLength(CUSTOMERS);
  const parts = Array.from({ length: WORKERS }, (_, worker) =>
    customers
      .map(({ account, documentNumber }, index) => ({
        account,
        documentNumber,
        body: { isPoliticallyExposedPerson: true, email: emailOf(index) },
      }))
      .filter((_, index) => index % WORKERS === worker),
  );
  const files = await Promise.all(
    parts.map(async (items, worker) => {
      const file = join(dir!, `part-${worker + 1}.jsonl`);
      await writeFile(file, items.map((item) => `${JSON.stringify(item)}\n`).join(''));
      return file;
    }),
  );
  const env = {
    ...baseEnv(),
    REDIS_URL: redis!.url,
    BAAS_BASE_URL: server!.url,
    BAAS_TOKEN: sandbox.clients[0]!.token,
  };

  const runs = await Promise.all(files.map((file) => runWorker(file, env)));

  const shown = runs.map((run, i) => `worker ${i + 1}: exit ${run.code}\n${run.stdout}${run.stderr}`).join('\n');
  for (const [i, run] of runs.entries()) {
    expect(run.code, shown).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!), shown).toEqual({ ok: parts[i]!.length, failed: 0 });
  }
  const updates = answers.filter((answer) => answer.method === 'PUT');
  const refused = updates.filter((answer) => answer.status === '429');
  const [first, last] = [updates.at(0)!.at, updates.at(-1)!.at];
  // Measured, not asserted (no outcome may depend on the machine's speed): the rate they reached together.
  const perSecond = ((updates.length - 1) * 1000) / (last - first);
  console.info(
    `shared limit: ${updates.length} requests, ${refused.length} answered 429, ` +
      `${perSecond.toFixed(1)} requests/s against a limit of ${(LIMIT.requests * 1000) / LIMIT.windowMs}/s`,
  );
  expect(refused, shown).toEqual([]);
  expect(updates.map((answer) => answer.status)).toEqual(Array(CUSTOMERS).fill('200'));
  const emails = sandbox.snapshot().clients[0]!.accounts.map((account) => account.data.email);
  expect(emails).toEqual(customers.map((_, index) => emailOf(index)));
}, 120_000);

it('with Redis unreachable, a worker stops with the connection error and sends nothing', async () => {
  const before = answers.length;
  const nowhere = await startRedisServer();
  await nowhere.stop();
  const file = join(dir!, 'unreachable.jsonl');
  const [customer] = sandbox.clients[0]!.accounts;
  await writeFile(file, `${JSON.stringify({ ...customer, body: { isPoliticallyExposedPerson: false } })}\n`);
  const run = await runWorker(file, {
    ...baseEnv(),
    REDIS_URL: nowhere.url,
    BAAS_BASE_URL: server!.url,
    BAAS_TOKEN: sandbox.clients[0]!.token,
  });
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.stderr).toContain('ECONNREFUSED');
  expect(answers.slice(before)).toEqual([]);
}, 120_000);
