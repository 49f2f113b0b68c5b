// What a test file changed of the process's global state, for the rule of the projects whose files share
// one module graph per worker (test/support/pure-setup.ts, test/support/process-setup.ts): a module of
// its own, naming no process module, so that a pure test can check the check (test/support/pure-rule.test.ts).
import { afterAll, beforeAll, expect, vi } from 'vitest';

export interface Globals {
  globals: Map<PropertyKey, unknown>;
  env: Record<string, string | undefined>;
  listeners: Map<string, number>;
  cwd: string;
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
    cwd: process.cwd(),
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
  if (now.cwd !== before.cwd) found.push(`the working directory changed (process.chdir) to ${now.cwd}`);
  return found;
}

/**
 * Registers the check for the test file being run (from a project's setup file, which runs before each
 * file): a snapshot before its first test, and in its afterAll a failure naming what it left behind for
 * the files after it in the same worker, `rule` saying why that matters there.
 */
export function failOnLeftBehind(rule: string): void {
  let before: Globals;
  beforeAll(() => {
    before = snapshot();
  });
  afterAll(() => {
    const found = leftBehind(before);
    // Put back what can be, so that one file's leak fails that file and not every file after it.
    vi.useRealTimers();
    if (process.cwd() !== before.cwd) process.chdir(before.cwd);
    expect(found, `this file leaves global state behind for the files after it ${rule}`).toEqual([]);
  });
}
