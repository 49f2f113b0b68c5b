import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StartMockOptions {
  /** Path of the OpenAPI document to serve. Defaults to the bundled spec shipped with this package. */
  spec?: string;
  /** Port on 127.0.0.1. Defaults to a free port chosen by the system. */
  port?: number;
  /** Generate responses from the schemas (Prism `-d`) instead of serving the examples. */
  dynamic?: boolean;
  /** Seed for dynamic responses, so that a run can be repeated. */
  seed?: string | number;
  /** Answer with an error when a response the mock would give breaks the contract (Prism `--errors`). */
  errors?: boolean;
  /** How long to wait for "Prism is listening". Default 30 000 ms. */
  readyTimeoutMs?: number;
}

export interface RunningMock {
  /** Base URL of the mock, e.g. `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  port: number;
  /** Stops the mock and waits for it to exit. Safe to call more than once. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const READY_LINE = /Prism is listening on (http:\/\/\S+)/;
const FATAL_LINE = /\bfatal\b|EADDRINUSE/;

const here = dirname(fileURLToPath(import.meta.url));
/** The bundled spec sits in src/generated/ in the repository and in dist/generated/ once built. */
export const bundledSpecPath = join(here, '..', 'generated', 'openapi.yaml');

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
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
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
    for (const child of running) child.kill('SIGTERM');
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

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/** Starts Prism on 127.0.0.1, resolves once it is listening, and rejects with its output if it fails. */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const port = options.port ?? (await freePort());
  const args = [prismEntry(), 'mock', options.spec ?? bundledSpecPath, '--host', HOST, '--port', String(port)];
  if (options.dynamic) args.push('--dynamic');
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  if (options.errors) args.push('--errors');

  installExitHooks();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await waitForExit(child);
  };

  let output = '';
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Prism did not report "Prism is listening" within ${options.readyTimeoutMs ?? 30_000} ms:\n${output}`)),
        options.readyTimeoutMs ?? 30_000,
      );
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        const ready = READY_LINE.exec(output);
        if (ready?.[1]) {
          clearTimeout(timer);
          resolveUrl(ready[1].replace(/\/$/, ''));
        } else if (FATAL_LINE.test(output)) {
          clearTimeout(timer);
          reject(new Error(`Prism failed to start:\n${output}`));
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`Prism exited (${signal ?? code}) before it was ready:\n${output}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    // Keep draining the logs so a chatty mock never blocks on a full pipe.
    child.stdout?.resume();
    child.stderr?.resume();
    return { url, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
