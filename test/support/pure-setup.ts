// The rule of the `pure` project (vitest.config.ts; TESTING.md, "Two projects"): its files share one
// module graph in threads, so none may start a process or a thread, listen on a socket, or leave
// global state behind for the next file. This setup file, run before each of them, makes the
// first kind throw at once, and fails the file in its afterAll when it leaves fake timers on, a global
// changed, an environment variable changed, or a process listener added.
// A file that needs a process or a socket imports the Node module that makes one (PROCESS_MODULES of
// scripts/lib/test-kinds.mjs) and so runs in the isolated `process` project instead.
import childProcess from 'node:child_process';
import cluster from 'node:cluster';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads from 'node:worker_threads';
import { afterAll, beforeAll, expect, vi } from 'vitest';

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

interface Globals {
  globals: Map<PropertyKey, unknown>;
  env: Record<string, string | undefined>;
  listeners: Map<string, number>;
}

const EVENTS = [
  'exit',
  'beforeExit',
  'uncaughtException',
  'unhandledRejection',
  'warning',
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
];

/** The globals vitest itself sets for each file (expect's state, the worker's own). */
const runners = (key: PropertyKey): boolean =>
  /^(\$\$jest|__vitest|__VITEST|@vitest)/.test(typeof key === 'symbol' ? (Symbol.keyFor(key) ?? '') : String(key));

function snapshot(): Globals {
  return {
    globals: new Map(Reflect.ownKeys(globalThis).map((key) => [key, Reflect.get(globalThis, key)])),
    env: { ...process.env },
    listeners: new Map(EVENTS.map((event) => [event, process.listenerCount(event)])),
  };
}

/** What a file changed of the process's global state since `before`, in words. */
export function leftBehind(before: Globals): string[] {
  const now = snapshot();
  const found: string[] = [];
  if (vi.isFakeTimers()) found.push('fake timers still on (call vi.useRealTimers() in afterEach/afterAll)');
  for (const [key, value] of now.globals) {
    if (runners(key)) continue;
    if (!before.globals.has(key)) {
      // A registry symbol (Symbol.for) made on first use is a library's process-wide cache (Node's
      // fetch dispatcher, the OpenTelemetry api's registry): adding it is no leak, replacing it is.
      if (typeof key !== 'symbol' || Symbol.keyFor(key) === undefined) found.push(`globalThis[${String(key)}] added`);
    } else if (!Object.is(before.globals.get(key), value)) found.push(`globalThis[${String(key)}] replaced`);
  }
  for (const key of before.globals.keys())
    if (!now.globals.has(key) && !runners(key)) found.push(`globalThis[${String(key)}] deleted`);
  for (const key of new Set([...Object.keys(before.env), ...Object.keys(now.env)]))
    if (before.env[key] !== now.env[key]) found.push(`process.env.${key} changed`);
  for (const [event, count] of now.listeners)
    if (count > before.listeners.get(event)!)
      found.push(`${count - before.listeners.get(event)!} '${event}' listener(s) added to process`);
  return found;
}

let before: Globals;
beforeAll(() => {
  before = snapshot();
});
afterAll(() => {
  const found = leftBehind(before);
  // Put back what can be, so that one file's leak fails that file and not every file after it.
  vi.useRealTimers();
  expect(
    found,
    `this file leaves global state behind for the files after it ${RULE.replace(/ a test file .*/, '')}`,
  ).toEqual([]);
});
