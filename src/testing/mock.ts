import { spawn, type ChildProcess } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOLEAN, checkOptions, must, optionError, type OptionRules, within } from '../option-rules.js';

/** The options of `startMock`: the spec, where to listen, and how Prism answers. */
export interface StartMockOptions {
  /** Path of the OpenAPI document to serve. Defaults to the bundled spec shipped with this package. */
  spec?: string;
  /** Port to listen on. Defaults to a free port chosen by the system. */
  port?: number;
  /** Interface to listen on. Defaults to 127.0.0.1: a mock is for this machine only unless asked. */
  host?: string;
  /** Generate responses from the schemas (Prism `-d`) instead of serving the examples. */
  dynamic?: boolean;
  /** Seed for dynamic responses, so that a run can be repeated. */
  seed?: string | number;
  /** Answer with an error when a response the mock would give breaks the contract (Prism `--errors`). */
  errors?: boolean;
  /** How long to wait for "Prism is listening". Default 30 000 ms. */
  readyTimeoutMs?: number;
}

/** A Prism mock `startMock` started; `stop()` ends it. */
export interface RunningMock {
  /** Base URL of the mock, e.g. `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Stops the mock and waits for it to exit. Safe to call more than once. */
  stop(): Promise<void>;
}

const DEFAULT_HOST = '127.0.0.1';
const READY_LINE = /Prism is listening on (http:\/\/\S+)/;
const FATAL_LINE = /\bfatal\b|EADDRINUSE/;
// Prism prints a fatal error over several chunks and then exits; wait this long for the rest.
const FATAL_GRACE_MS = 2_000;
// Prism exits on SIGTERM at once; SIGKILL after this long is only a safety net.
const STOP_GRACE_MS = 5_000;
// When the port is ours to choose, another process may take it between freePort() and Prism's bind.
const PORT_ATTEMPTS = 3;

// import.meta.url: in the CommonJS build the bundler (tsup, shims on) replaces it with this file's URL.
const here = dirname(fileURLToPath(import.meta.url));

/**
 * The bundled spec sits in src/generated/ in the repository and in dist/generated/ once built. The
 * bundler may put this code in dist/testing/ or in a shared chunk in dist/, so the nearest
 * `generated/openapi.yaml` above this file is the one, not a fixed relative path.
 */
function findBundledSpec(): string {
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, 'generated', 'openapi.yaml');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return join(here, '..', 'generated', 'openapi.yaml');
  }
}
/** The path of the bundled spec (`openapi.yaml`) shipped with the package: what `startMock` serves by default. */
export const bundledSpecPath = findBundledSpec();

// Loaded into Prism's process before Prism itself: when the IPC channel to the parent closes (the
// parent exited, however, SIGKILL included), Prism exits too, so no mock outlives what started it.
const PARENT_WATCHDOG = `data:text/javascript,process.on('disconnect',()=>process.exit(0))`;

function prismEntry(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
  } catch {
    throw new Error(
      'startMock needs Prism: install it with `npm install --save-dev @stoplight/prism-cli@~5.14` (5.15 and later need Node 24).',
    );
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, DEFAULT_HOST, () => {
      // Listening on a TCP port, the address is always an AddressInfo.
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

// Every running mock is killed when this process exits, however it exits, so no Prism outlives its tests.
const running = new Set<ChildProcess>();
let exitHooksInstalled = false;
function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      for (const child of running) child.kill('SIGTERM');
      process.off(signal, onSignal);
      // Re-raise only when nobody else handles the signal, so the default exit still happens.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

// Called only on a child that has not exited: stopChild checks first, and before it is ready a child
// that exits settles the wait at once.
function waitForExit(child: ChildProcess, ms = Infinity): Promise<boolean> {
  return new Promise((done) => {
    const timer = Number.isFinite(ms) ? setTimeout(() => done(false), ms) : undefined;
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, STOP_GRACE_MS)) return;
  child.kill('SIGKILL');
  await waitForExit(child);
}

/** Resolves with Prism's URL once it says it is listening; rejects with everything it printed otherwise. */
function waitUntilReady(child: ChildProcess, spec: string, timeoutMs: number): Promise<string> {
  let output = '';
  return new Promise<string>((resolveUrl, reject) => {
    let settled = false;
    const settle = (result: { url: string } | { error: Error }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Stop collecting: a mock that logs every request must not grow this string for hours.
      child.stdout?.off('data', onData).resume();
      child.stderr?.off('data', onData).resume();
      if ('url' in result) resolveUrl(result.url);
      else reject(result.error);
    };
    const timer = setTimeout(
      () =>
        settle({
          error: new Error(
            `startMock: Prism did not report "Prism is listening" for ${spec} within ${timeoutMs} ms:\n${output.trim()}`,
          ),
        }),
      timeoutMs,
    );
    let failing = false;
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = READY_LINE.exec(output);
      if (ready?.[1]) settle({ url: ready[1].replace(/\/$/, '') });
      else if (FATAL_LINE.test(output) && !failing) {
        failing = true;
        void waitForExit(child, FATAL_GRACE_MS).then(() => {
          // The reason first (Prism's "fatal" line, e.g. a YAML error), then everything it printed.
          const reason =
            /.*EADDRINUSE.*/.exec(output)?.[0].trim() ??
            /fatal[ \t]+(\S.*)/.exec(output)?.[1]?.trim() ??
            'see its output';
          settle({
            error: new Error(
              `startMock: Prism could not serve ${spec}: ${reason}\n\nPrism's output:\n${output.trim()}`,
            ),
          });
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      if (!failing)
        settle({
          error: new Error(
            `startMock: Prism exited (${signal ?? code}) before it was ready to serve ${spec}:\n${output.trim()}`,
          ),
        });
    });
    child.once('error', (error) => settle({ error }));
  });
}

async function startOnce(args: string[], spec: string, port: number, timeoutMs: number): Promise<RunningMock> {
  installExitHooks();
  const child = spawn(process.execPath, ['--import', PARENT_WATCHDOG, ...args, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // The channel exists only for the watchdog: it must not keep this process alive by itself.
  child.channel?.unref();
  running.add(child);
  child.once('exit', () => running.delete(child));
  const stop = () => stopChild(child);
  try {
    return { url: await waitUntilReady(child, spec, timeoutMs), port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// A timer armed for longer fires at once.
const MAX_TIMER_MS = 2 ** 31 - 1;
const isText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

// Each option's rule, once (tsc fails here when StartMockOptions gains or loses one): what Prism is
// given is of the kind it takes, so a mistake is said here rather than in Prism's log.
const RULES: OptionRules<StartMockOptions> = {
  spec: must(isText, 'must be the path of an OpenAPI document, e.g. spec: "openapi/openapi.yaml"'),
  port: within(
    (port) => Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65_535,
    'must be a whole number from 1 to 65535 (leave it out for a free one)',
  ),
  host: must(isText, 'must be an interface to listen on, e.g. host: "127.0.0.1"'),
  dynamic: BOOLEAN,
  seed: must(
    (seed) => isText(seed) || Number.isFinite(seed),
    'must be a non-empty string or a finite number, e.g. seed: "my-test"',
  ),
  errors: BOOLEAN,
  readyTimeoutMs: within(
    (ms) => typeof ms === 'number' && ms > 0 && ms <= MAX_TIMER_MS,
    `must be a positive number of milliseconds, at most ${MAX_TIMER_MS}`,
  ),
};

/** Starts Prism on 127.0.0.1, resolves once it is listening, and rejects with its output if it fails. */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  // Before anything else, Prism's presence included: a misspelt option is the caller's to fix first.
  checkOptions('startMock', options, RULES, { aliases: { timeoutMs: 'readyTimeoutMs' } });
  const spec = resolve(options.spec ?? bundledSpecPath);
  // Prism's own message for a missing file is buried in its log; say it plainly, before spawning.
  await access(spec, constants.R_OK).catch((error: NodeJS.ErrnoException) => {
    throw optionError({
      where: 'startMock',
      option: 'spec',
      rule: `names an OpenAPI document that cannot be read: ${spec} (${error.code ?? error.message})`,
    });
  });
  // One process (NODE_ENV=production would make Prism fork its server), so stopping it stops the mock.
  const args = [prismEntry(), 'mock', spec, '--host', options.host ?? DEFAULT_HOST, '--no-multiprocess'];
  if (options.dynamic) args.push('--dynamic');
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  if (options.errors) args.push('--errors');
  const timeoutMs = options.readyTimeoutMs ?? 30_000;

  if (options.port !== undefined) {
    const { port } = options;
    return startOnce(args, spec, port, timeoutMs).catch((error: unknown) => {
      // A port the caller chose, taken: what to do, after Prism's line (the output stays below it).
      if (error instanceof Error && /EADDRINUSE/.test(error.message.split('\n\n')[0]!))
        error.message = error.message.replace(
          /^[^\n]*/,
          (head) =>
            `${head}; port ${port} is in use on ${options.host ?? DEFAULT_HOST} (another mock or sandbox?): stop that one, give another port, or leave port out for a free one`,
        );
      throw error;
    });
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(args, spec, await freePort(), timeoutMs);
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}
