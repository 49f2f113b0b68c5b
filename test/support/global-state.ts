// What a test file changed of the process's global state, for the rule of the projects whose files share
// one module graph per worker (test/support/pure-setup.ts, test/support/process-setup.ts): a module of
// its own, naming no process module, so that a pure test can check the check (test/support/pure-rule.test.ts).
import { builtinModules } from 'node:module';
import { afterAll, beforeAll, expect, vi } from 'vitest';

export interface Globals {
  globals: Map<PropertyKey, unknown>;
  /** The functions of the objects besides globalThis that every file of a worker shares (sharedObjects). */
  shared: Shared[];
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

interface Shared {
  name: string;
  target: object;
  functions: Map<PropertyKey, PropertyDescriptor>;
}

const PUBLIC_BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/**
 * The objects besides globalThis that every file of a worker shares and a test patches (vi.spyOn, a
 * fake, a stub): process and its output streams, console, and each of Node's built-in modules loaded
 * by now (by the time a file's first hook runs, everything it imports statically is), with the
 * prototypes of the classes each exports. Named as a message would name them.
 */
let sharedCache: { modules: number; objects: Map<object, string> } | undefined;

function sharedObjects(): Map<object, string> {
  const runtime = process as unknown as { moduleLoadList: string[]; getBuiltinModule(name: string): unknown };
  // The list only grows as modules load: the same length is the same objects.
  if (sharedCache?.modules === runtime.moduleLoadList.length) return sharedCache.objects;
  const objects = new Map<object, string>([
    [process, 'process'],
    [process.stdout, 'process.stdout'],
    [process.stderr, 'process.stderr'],
    [console, 'console'],
  ]);
  const loaded = runtime.moduleLoadList.flatMap((entry) => {
    const name = /^NativeModule (.+)$/.exec(entry)?.[1];
    return name !== undefined && PUBLIC_BUILTINS.has(name) ? [name] : [];
  });
  const add = (target: object, name: string) => {
    if (!objects.has(target)) objects.set(target, name);
  };
  for (const name of loaded) {
    const exports = runtime.getBuiltinModule(name) as object | undefined;
    if ((typeof exports !== 'object' && typeof exports !== 'function') || exports === null) continue;
    add(exports, `node:${name}`);
    // Read as a program would, lazy getters included (fs.ReadStream is one).
    for (const [key, value] of Object.entries(exports))
      if (typeof value === 'function' && typeof value.prototype === 'object' && value.prototype !== null)
        add(value.prototype, `node:${name}.${key}.prototype`);
  }
  sharedCache = { modules: runtime.moduleLoadList.length, objects };
  return objects;
}

/** The function-valued own properties of an object (a value, a getter or a setter), read without calling a getter. */
function functionsOf(target: object): Map<PropertyKey, PropertyDescriptor> {
  const functions = new Map<PropertyKey, PropertyDescriptor>();
  for (const key of Reflect.ownKeys(target)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
    if (descriptor && (typeof descriptor.value === 'function' || descriptor.get || descriptor.set))
      functions.set(key, descriptor);
  }
  return functions;
}

const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor | undefined): boolean =>
  b !== undefined && Object.is(a.value, b.value) && a.get === b.get && a.set === b.set;

/** A shared object's functions changed since `before`: replaced, deleted, or added (a spy on an inherited method is an own one). */
function changedFunctions({ target, functions }: Shared): { key: PropertyKey; change: string }[] {
  const now = functionsOf(target);
  const changes: { key: PropertyKey; change: string }[] = [];
  for (const [key, descriptor] of functions)
    if (!sameDescriptor(descriptor, now.get(key))) changes.push({ key, change: now.has(key) ? 'replaced' : 'deleted' });
  for (const key of now.keys())
    if (!functions.has(key))
      changes.push({ key, change: Reflect.has(Object.getPrototypeOf(target) ?? {}, key) ? 'replaced' : 'added' });
  return changes;
}

export function snapshot(): Globals {
  return {
    ...snapshotOfProcess(),
    shared: [...sharedObjects()].map(([target, name]) => ({ name, target, functions: functionsOf(target) })),
  };
}

/** All of the snapshot but the shared objects' functions, which leftBehind compares one by one. */
function snapshotOfProcess(): Omit<Globals, 'shared'> {
  return {
    globals: new Map(Reflect.ownKeys(globalThis).map((key) => [key, Reflect.get(globalThis, key)])),
    env: { ...process.env },
    listeners: new Map(EVENTS.map((event) => [event, process.listenerCount(event)])),
    cwd: process.cwd(),
  };
}

/** What a file changed of the process's global state since `before`, in words. */
export function leftBehind(before: Globals): string[] {
  const now = snapshotOfProcess();
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
  // A function of process, console or a Node module replaced (a spy, a fake) and not put back. Only
  // the objects seen before count: a module first loaded during the file was not there to compare.
  for (const shared of before.shared)
    for (const { key, change } of changedFunctions(shared)) found.push(`${shared.name}.${String(key)} ${change}`);
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
    // vitest restores every spy after the file's last hook (vi.restoreAllMocks): done here first, the
    // check sees what the next file of the worker will see. A spy set on a fake (vi.spyOn(globalThis,
    // 'setTimeout') under vi.useFakeTimers) and restored after the fake was taken away puts the fake
    // back: a later file's timers then never fire (test/guides/troubleshooting.test.ts hung so, after
    // test/drift/verify-run.test.ts, in a shared fork).
    vi.restoreAllMocks();
    const found = leftBehind(before);
    // Put back what can be, so that one file's leak fails that file and not every file after it.
    vi.useRealTimers();
    putBack(before);
    if (process.cwd() !== before.cwd) process.chdir(before.cwd);
    expect(found, `this file leaves global state behind for the files after it ${rule}`).toEqual([]);
  });
}

/** Puts back the globals and shared functions a file replaced, where they can be redefined. */
function putBack(before: Globals): void {
  for (const [key, value] of before.globals)
    if (!Object.is(Reflect.get(globalThis, key), value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(globalThis, key);
      if (descriptor === undefined || descriptor.writable || descriptor.set) Reflect.set(globalThis, key, value);
    }
  for (const shared of before.shared)
    for (const { key } of changedFunctions(shared)) {
      const descriptor = shared.functions.get(key);
      // Not configurable: the failure names it.
      if (descriptor) Reflect.defineProperty(shared.target, key, descriptor);
      else Reflect.deleteProperty(shared.target, key);
    }
}
