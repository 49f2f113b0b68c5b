// The batch commands as a user runs them, against a sandbox listening on 127.0.0.1:0 in the test's own
// process, which counts what it was sent: in process through main() (`runMain`), or the real command
// line in a child process (`startCli`, `runCli`) where the test is about the process itself: a kill -9,
// a signal, a lock held by another process (TESTING.md, "Quick and matrix", rule 4).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
import { LEASE_MS } from '../../../src/files.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/paths.mjs';
import { createSandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { listen, logLine } from '../../../src/sandbox/listen.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { capture, sendStop, signalListeners } from '../in-process.js';
import { cliCommand } from '../../support/cli.js';
import { alive } from '../processes.js';

export interface CountingSandbox {
  url: string;
  sandbox: ReturnType<typeof createSandbox>;
  /** Every request line the sandbox logged. */
  requests: string[];
  /** Successful PUTs by Account. */
  updated: Map<string, number>;
  /**
   * From now on, answer `count` more requests of `method` (PUT by default), then hold every later one unanswered: a held request never
   * reaches the sandbox and ends with a 503 once its client goes away or `release()` is called. A run can
   * then be stopped at a known point, however slow the machine, instead of racing a paced run.
   */
  holdAfter(count: number, method?: 'PUT' | 'GET'): void;
  /** Ends the hold: held requests get their 503, new ones are served. */
  release(): void;
  /**
   * The same sandbox, counting and hold without HTTP: a `fetch` that hands each request to the handler
   * `url` serves, and logs its line as `url`'s server does. For a command run in process at volume,
   * where the sockets were most of the test's CPU.
   */
  fetch: typeof fetch;
  /** How many requests `fetch` was handed (the rest came over HTTP). */
  fetched(): number;
  stop(): Promise<void>;
}

/** A sandbox on 127.0.0.1:0 that counts every request, and the successful PUTs by account. */
/** The ids of every key of the sandbox's first client, sorted: what a whole export holds. */
export const keyIdsOf = (counting: CountingSandbox): string[] =>
  counting.sandbox
    .snapshot()
    .clients[0]!.accounts.flatMap((account) => account.keys.map((key) => key.id))
    .sort();

export async function countingSandbox(options: SandboxOptions): Promise<CountingSandbox> {
  const sandbox = createSandbox(options);
  const requests: string[] = [];
  const updated = new Map<string, number>();
  let allowed = Number.POSITIVE_INFINITY;
  let heldMethod = 'PUT';
  let fetched = 0;
  let released: Promise<void> = Promise.resolve();
  let release = () => {};
  const held = (signal: AbortSignal) =>
    Promise.race([released, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]).then(
      () => new Response(null, { status: 503 }),
    );
  // The log masks the Account (issue 26), so successful PUTs are counted from the requests themselves:
  // the sandbox's own handler, served by the same listen() its `listen` method uses.
  const handle = async (request: Request) => {
    if (request.method === heldMethod && allowed-- <= 0) return held(request.signal);
    const account = new URL(request.url).searchParams.get('Account');
    const response = await sandbox.fetch(request);
    if (request.method === 'PUT' && account !== null && response.status >= 200 && response.status < 300)
      updated.set(account, (updated.get(account) ?? 0) + 1);
    return response;
  };
  const running = await listen(handle, { port: 0, log: (line) => requests.push(line) });
  return {
    url: running.url,
    sandbox,
    requests,
    updated,
    holdAfter(count, method = 'PUT') {
      allowed = count;
      heldMethod = method;
      released = new Promise((resolve) => (release = resolve));
    },
    release() {
      allowed = Number.POSITIVE_INFINITY;
      release();
    },
    fetched: () => fetched,
    fetch: async (input, init) => {
      fetched += 1;
      const request = new Request(input, init);
      const started = performance.now();
      const response = await handle(request);
      requests.push(logLine(request, response.status, performance.now() - started));
      return response;
    },
    stop: () => {
      release();
      return running.stop();
    },
  };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  finished: Promise<Finished>;
}

const children = new Set<ChildProcess>();

/** Starts `baas-pix-contract ...args` (the sources' bundle, test/support/cli.ts) with `env` added. */
export function startCli(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(...cliCommand(args), {
    cwd: repoRoot,
    env: { ...process.env, BAAS_TOKEN: '', BAAS_CLIENT_SECRET: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<Finished>((resolve) => {
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, finished };
}

export const runCli = (args: string[], env?: Record<string, string>): Promise<Finished> => startCli(args, env).finished;

export interface RunningInProcess {
  stdout(): string;
  stderr(): string;
  finished: Promise<Finished>;
  /** Delivers `signal` to the handlers the command added (never to the test runner's); how many there were. */
  signal(signal: 'SIGINT' | 'SIGTERM'): number;
}

/**
 * `baas-pix-contract ...args` in this process, through main() with its output captured: what `startCli`
 * gives (exit code, standard output and error, progress with the latter), with no process started. The
 * environment is the process's with `env` added, and no token or client secret of its own, as
 * `startCli` gives its child. `options.fetch` (a `CountingSandbox`'s) sends the requests without HTTP.
 */
export function startMain(
  args: string[],
  env: Record<string, string> = {},
  options: { fetch?: typeof fetch } = {},
): RunningInProcess {
  const before = signalListeners();
  const io = capture();
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join('');
  const stdout = () => text(io.stdout);
  const stderr = () => text(io.stderr) + io.progressWritten.join('');
  const finished = main(args, COMMANDS, {
    ...io,
    env: { ...process.env, BAAS_TOKEN: '', BAAS_CLIENT_SECRET: '', ...env },
    ...options,
  }).then((code) => ({ code, signal: null, stdout: stdout(), stderr: stderr() }));
  return { stdout, stderr, finished, signal: (signal) => sendStop(before, signal) };
}

export const runMain = (...args: Parameters<typeof startMain>): Promise<Finished> => startMain(...args).finished;

/** Kills every command line a test started and left running: the safety net after each test. */
export function killChildren(): void {
  for (const child of children) if (child.pid !== undefined && alive(child.pid)) child.kill('SIGKILL');
  children.clear();
}

export async function tempDir(): Promise<{ path: string; file(name: string): string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'batch-cli-'));
  return { path, file: (name) => join(path, name), remove: () => rm(path, { recursive: true, force: true }) };
}

/** The entries of a journal after its header (a torn last line left out). */
export async function journalEntries(path: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  lines.pop();
  return lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls `check` on the event loop until it holds (no timing assertion: the test's own timeout bounds it). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** One JSONL line of update-many for a seeded account. */
export const updateLine = (account: { account: string; documentNumber: string }, body: object): string =>
  JSON.stringify({ account: account.account, documentNumber: account.documentNumber, body });

/**
 * What time does to the lock of a run killed with SIGKILL: its lease is not renewed, so once LEASE_MS
 * has passed it is taken over. Set back here instead of waiting (the locks beside `files`).
 */
export async function leaseRunOut(...files: string[]): Promise<void> {
  const past = new Date(Date.now() - LEASE_MS - 5_000);
  for (const file of files) await utimes(`${file}.lock`, past, past).catch(() => undefined);
}
