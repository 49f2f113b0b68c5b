// What startMock does to the process that calls it, on a fresh copy of the module and a fake Prism:
// hooks, installed once, that take every running mock down when this process exits or gets
// SIGINT, SIGTERM or SIGHUP (re-raising the signal only when nobody else handles it); and the
// plain words when Prism is not installed or no bundled spec is found.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dirname, join, resolve } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { fakeSpawn, flush, nextChild, resetSpawned, spawned } from './fake-prism.js';

vi.mock('node:child_process', async (importOriginal) => ({ ...(await importOriginal<object>()), spawn: fakeSpawn }));
// Each test takes milliseconds against the fake; a start or stop that never ends fails in 5 s, not 30.
vi.setConfig({ testTimeout: 5_000, hookTimeout: 5_000 });

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SPEC = resolve(repoRoot, 'src/generated/openapi.yaml');

afterEach(async () => {
  vi.restoreAllMocks();
  vi.doUnmock('node:fs');
  vi.doUnmock('node:module');
  vi.doUnmock('node:net');
  for (const child of spawned) child.exit(0);
  await flush();
  resetSpawned();
});

/** A fresh mock.ts (its hooks not yet installed), with every process.on call recorded. */
async function freshModule() {
  vi.resetModules();
  const added: [string, (...args: unknown[]) => void][] = [];
  const on = process.on.bind(process);
  vi.spyOn(process, 'on').mockImplementation(((event: string, listener: (...args: unknown[]) => void) => {
    added.push([event, listener]);
    return on(event, listener);
  }) as typeof process.on);
  const module = await import('../../src/testing/mock.js');
  const listener = (event: string) => added.find(([name]) => name === event)?.[1];
  const remove = () => {
    for (const [event, handler] of added) process.off(event, handler);
  };
  return { module, added, listener, remove };
}

async function readyMock(startMock: typeof import('../../src/testing/mock.js').startMock) {
  const started = startMock({ spec: SPEC });
  const child = await nextChild();
  child.print(`Prism is listening on http://127.0.0.1:${child.port}\n`);
  return { mock: await started, child };
}

describe('exit hooks', () => {
  it('are installed on the first start only: one for exit and one per signal', async () => {
    const { module, added, remove } = await freshModule();
    try {
      expect(added).toStrictEqual([]);
      const first = await readyMock(module.startMock);
      const second = await readyMock(module.startMock);
      expect(added.map(([event]) => event)).toStrictEqual(['exit', ...SIGNALS]);
      await Promise.all([first.mock.stop(), second.mock.stop()]);
    } finally {
      remove();
    }
  });

  it('on exit, every mock still running gets SIGKILL; one already stopped gets nothing more', async () => {
    const { module, listener, remove } = await freshModule();
    try {
      const stopped = await readyMock(module.startMock);
      const running = await readyMock(module.startMock);
      await stopped.mock.stop();
      running.child.diesOf.clear();
      listener('exit')!();
      expect(stopped.child.signals).toStrictEqual(['SIGTERM']);
      expect(running.child.signals).toStrictEqual(['SIGKILL']);
    } finally {
      remove();
    }
  });

  it.each(SIGNALS)('on %s: every running mock gets SIGTERM, and the hook removes itself', async (signal) => {
    // Someone else handles the signal too: it is not re-raised.
    const other = () => undefined;
    process.on(signal, other);
    const { module, listener, remove } = await freshModule();
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      const { child } = await readyMock(module.startMock);
      child.diesOf.clear();
      const hook = listener(signal)!;
      expect(process.listeners(signal)).toContain(hook);
      hook();
      expect(child.signals).toStrictEqual(['SIGTERM']);
      expect(process.listeners(signal)).not.toContain(hook);
      expect(kill).not.toHaveBeenCalled();
    } finally {
      process.off(signal, other);
      remove();
    }
  });

  it('re-raises the signal when no other listener handles it, so the default exit still happens', async () => {
    const { module, listener, remove } = await freshModule();
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    const others = process.listeners('SIGHUP');
    for (const handler of others) process.off('SIGHUP', handler);
    try {
      await readyMock(module.startMock);
      listener('SIGHUP')!();
      expect(kill).toHaveBeenCalledWith(process.pid, 'SIGHUP');
    } finally {
      for (const handler of others) process.on('SIGHUP', handler);
      remove();
    }
  });
});

describe('what startMock needs', () => {
  it('without Prism installed: how to install it, before anything is spawned', async () => {
    vi.resetModules();
    vi.doMock('node:module', async (importOriginal) => ({
      ...(await importOriginal<object>()),
      createRequire: () => ({
        resolve: () => {
          throw Object.assign(new Error("Cannot find module '@stoplight/prism-cli/package.json'"), {
            code: 'MODULE_NOT_FOUND',
          });
        },
      }),
    }));
    const { startMock } = await import('../../src/testing/mock.js');
    await expect(startMock({ spec: SPEC })).rejects.toThrow(
      new Error(
        'startMock needs Prism: install it with `npm install --save-dev @stoplight/prism-cli@~5.14` (5.15 and later need Node 24).',
      ),
    );
    expect(spawned).toStrictEqual([]);
  });

  it('a misspelt option: the option meant, before Prism is even looked for or anything spawned', async () => {
    vi.resetModules();
    const { startMock } = await import('../../src/testing/mock.js');
    await expect(startMock({ spec: SPEC, prot: 4010 } as never)).rejects.toThrow(
      /startMock: prot is not an option; did you mean port\?$/,
    );
    await expect(startMock({ spec: SPEC, timeoutMs: 5 } as never)).rejects.toThrow(/did you mean readyTimeoutMs\?$/);
    expect(spawned).toStrictEqual([]);
  });

  it("no port to be had on 127.0.0.1: the system's error, before anything is spawned", async () => {
    vi.resetModules();
    const refused = Object.assign(new Error('listen EADDRNOTAVAIL: address not available 127.0.0.1'), {
      code: 'EADDRNOTAVAIL',
    });
    vi.doMock('node:net', async (importOriginal) => {
      const { EventEmitter } = await import('node:events');
      return {
        ...(await importOriginal<object>()),
        createServer: () =>
          Object.assign(new EventEmitter(), {
            unref() {},
            listen(this: InstanceType<typeof EventEmitter>) {
              setImmediate(() => this.emit('error', refused));
            },
          }),
      };
    });
    const { startMock } = await import('../../src/testing/mock.js');
    await expect(startMock({ spec: SPEC })).rejects.toBe(refused);
    expect(spawned).toStrictEqual([]);
  });

  /** mock.ts loaded afresh where every existsSync answers `exists`; the paths it looked at. */
  async function loadWhereFilesExist(exists: boolean) {
    vi.resetModules();
    const looked: string[] = [];
    vi.doMock('node:fs', async (importOriginal) => ({
      ...(await importOriginal<object>()),
      existsSync: (path: string) => {
        looked.push(path);
        return exists;
      },
    }));
    const { bundledSpecPath } = await import('../../src/testing/mock.js');
    return { bundledSpecPath, looked };
  }

  it('the bundled spec is the nearest generated/openapi.yaml above the module', async () => {
    const { bundledSpecPath, looked } = await loadWhereFilesExist(true);
    const here = resolve(repoRoot, 'src/testing');
    expect(bundledSpecPath).toBe(join(here, 'generated', 'openapi.yaml'));
    expect(looked).toStrictEqual([join(here, 'generated', 'openapi.yaml')]);
  });

  it('with none found up to the root, the one next to the module', async () => {
    const { bundledSpecPath, looked } = await loadWhereFilesExist(false);
    const here = resolve(repoRoot, 'src/testing');
    expect(bundledSpecPath).toBe(SPEC);
    expect(looked[0]).toBe(join(here, 'generated', 'openapi.yaml'));
    expect(looked[1]).toBe(join(dirname(here), 'generated', 'openapi.yaml'));
    expect(looked.at(-1)).toBe(join('/', 'generated', 'openapi.yaml'));
  });
});
