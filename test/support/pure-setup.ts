// The rule of the `pure` project (vitest.config.ts; TESTING.md, "Two projects"): its files share one
// module graph in threads, so none may start a process or a thread, listen on a socket, or leave
// global state behind for the next file. This setup file, run before each of them, makes the
// first kind throw at once, and fails the file in its afterAll when it leaves fake timers on, a global
// changed, a function of process, console or a Node module replaced, an environment variable changed,
// or a process listener added (test/support/global-state.ts).
// A file that needs a process or a socket imports the Node module that makes one (PROCESS_MODULES of
// scripts/lib/test-kinds.mjs) and so runs in the `process` project instead.
import childProcess from 'node:child_process';
import cluster from 'node:cluster';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads from 'node:worker_threads';
import { failOnLeftBehind } from './global-state.js';

const RULE =
  'in the pure project (vitest.config.ts): a test file that starts processes, threads or servers ' +
  'must import the Node module it uses (node:child_process, node:net, node:http, …) so that it runs in the process project';

function refuse(what: string): never {
  throw new Error(`${what} refused ${RULE}`);
}

const GUARDED = Symbol.for('baas-pix-contract.pure-guard');
const guarded = globalThis as { [GUARDED]?: true };
if (!guarded[GUARDED]) {
  guarded[GUARDED] = true;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const)
    (childProcess as Record<string, unknown>)[name] = () => refuse(`child_process.${name}()`);
  (cluster as { fork: unknown }).fork = () => refuse('cluster.fork()');
  net.Server.prototype.listen = () => refuse('listening on a socket (net.Server#listen)');
  dgram.Socket.prototype.bind = () => refuse('binding a UDP socket (dgram.Socket#bind)');
  (workerThreads as { Worker: unknown }).Worker = class {
    constructor() {
      refuse('starting a worker thread (new Worker)');
    }
  };
  syncBuiltinESMExports();
}

failOnLeftBehind(RULE.replace(/ a test file .*/, ''));
