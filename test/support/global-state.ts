// What a test file changed of the process's global state, for the pure project's rule
// (test/support/pure-setup.ts): a module of its own, naming no process module, so that a pure test can
// check the check (test/support/pure-rule.test.ts).
import { vi } from 'vitest';

export interface Globals {
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

export function snapshot(): Globals {
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
