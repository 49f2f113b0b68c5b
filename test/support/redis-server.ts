// A throwaway redis-server for one test file: 127.0.0.1 on a free port, no persistence, an empty
// directory of its own. It dies with the process that started it even when that process is killed
// outright (./tied-spawn.ts), and stop() ends it otherwise.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureRedisServer } from '../../scripts/lib/redis-server.mjs';
import { freePort } from '../../src/testing/mock.js';
import { spawnTied } from './tied-spawn.js';

const READY = /Ready to accept connections/;
// Another process may take the free port between the lookup and redis-server's bind: try a few.
const ATTEMPTS = 3;

export interface RedisServer {
  /** e.g. `redis://127.0.0.1:41234` */
  url: string;
  port: number;
  /** Ends the server and removes its directory. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Resolves once the server accepts connections; rejects with its output if it exits first. */
function ready(child: ChildProcess): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!READY.test(output)) return;
      // From here on its log is read and dropped, so that a full pipe never blocks the server.
      child.stdout?.off('data', onData).resume();
      child.stderr?.off('data', onData).resume();
      resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // No persistence: nothing to save, so nothing is lost by not asking it to shut down.
        child.kill('SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
}

/** Finds (or installs, see scripts/lib/redis-server.mjs) redis-server and starts one. */
export async function startRedisServer(): Promise<RedisServer> {
  const executable = await ensureRedisServer();
  let failure: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'redis-server-'));
    const args = ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
    const child = spawnTied(executable, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = stopper(child, dir);
    try {
      await ready(child);
      return { url: `redis://127.0.0.1:${port}`, port, stop };
    } catch (error) {
      failure = error;
      await stop();
    }
  }
  throw failure;
}
