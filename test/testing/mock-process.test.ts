// startMock against a fake Prism process (fake-prism.ts): the command it runs, when it counts as
// ready, each way it fails and the words it fails with, the port retries, stop() and its SIGKILL
// safety net, and the exit hooks that take running mocks down with this process. Milliseconds per
// test; the real Prism is started in mock.matrix.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { fakeSpawn, flush, nextChild, resetSpawned, spawned, type FakePrism } from './fake-prism.js';

vi.mock('node:child_process', async (importOriginal) => ({ ...(await importOriginal<object>()), spawn: fakeSpawn }));
// Each test takes milliseconds against the fake; a start or stop that never ends fails in 5 s, not 30.
vi.setConfig({ testTimeout: 5_000, hookTimeout: 5_000 });

const { startMock, freePort, bundledSpecPath } = await import('../../src/testing/mock.js');

const WATCHDOG = "data:text/javascript,process.on('disconnect',()=>process.exit(0))";
// Where Node finds Prism from here (node_modules may be a link, or only in a folder above).
const PRISM = join(
  dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')),
  'dist',
  'index.js',
);
const BUNDLED = resolve(repoRoot, 'src/generated/openapi.yaml');

let dir: string;
let spec: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baas-fake-prism-'));
  spec = join(dir, 'spec.yaml');
  await writeFile(spec, 'openapi: 3.1.0\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  vi.useRealTimers();
  // Whatever a test left running is stopped, so no fake stays in the module's running set.
  for (const child of spawned) child.exit(0);
  await flush();
  resetSpawned();
});

const listening = (port: number | string) =>
  `[CLI] …  awaiting  Starting Prism…\n[CLI] ℹ  info      GET http://127.0.0.1:${port}/thing\n[CLI] ▶  start     Prism is listening on http://127.0.0.1:${port}/\n`;

/** Starts a mock on the fake and makes it ready; returns both. */
async function ready(options: Parameters<typeof startMock>[0] = {}) {
  const started = startMock({ spec, ...options });
  const child = await nextChild();
  child.print(listening(child.port));
  return { mock: await started, child };
}

const rejection = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('startMock resolved');
    },
    (error: unknown) => error as Error,
  );

describe('the command startMock runs', () => {
  it('by default: Node with the watchdog, Prism on the bundled spec, 127.0.0.1, one process, a free port, an IPC channel', async () => {
    const started = startMock();
    const child = await nextChild();
    child.print(listening(child.port));
    const mock = await started;
    expect(child.command).toBe(process.execPath);
    expect(child.args).toStrictEqual([
      '--import',
      WATCHDOG,
      PRISM,
      'mock',
      BUNDLED,
      '--host',
      '127.0.0.1',
      '--no-multiprocess',
      '--port',
      String(mock.port),
    ]);
    expect(child.options).toStrictEqual({ stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    expect(mock.port).toBeGreaterThan(0);
    // The channel is only the watchdog's: it does not keep this process alive.
    expect(child.channel.unrefs).toBe(1);
    await mock.stop();
  });

  it('each option becomes its flag', async () => {
    const { mock, child } = await ready({ dynamic: true, seed: 0, errors: true, host: '0.0.0.0', port: 4321 });
    expect(child.args).toStrictEqual([
      '--import',
      WATCHDOG,
      PRISM,
      'mock',
      spec,
      '--host',
      '0.0.0.0',
      '--no-multiprocess',
      '--dynamic',
      '--seed',
      '0',
      '--errors',
      '--port',
      '4321',
    ]);
    expect(mock.port).toBe(4321);
    await mock.stop();
  });

  it('options set to false add nothing; a relative spec path is resolved', async () => {
    const fromHere = relative(process.cwd(), BUNDLED);
    expect(fromHere).not.toMatch(/^\//);
    const { mock, child } = await ready({ spec: fromHere, dynamic: false, errors: false, seed: 'abc' });
    expect(child.args.slice(3, -2)).toStrictEqual([
      'mock',
      BUNDLED,
      '--host',
      '127.0.0.1',
      '--no-multiprocess',
      '--seed',
      'abc',
    ]);
    await mock.stop();
  });

  it('the bundled spec is the one in src/generated/', () => {
    expect(bundledSpecPath).toBe(BUNDLED);
  });
});

describe('ready', () => {
  it("resolves with Prism's URL without its trailing slash, read from stdout or stderr, across chunks", async () => {
    const started = startMock({ spec, port: 4010 });
    const child = await nextChild();
    child.print('[CLI] ▶  start     Prism is list', 'stderr');
    await flush();
    child.print('ening on http://127.0.0.1:4010/\n', 'stderr');
    const mock = await started;
    expect(mock).toMatchObject({ url: 'http://127.0.0.1:4010', port: 4010 });
    await mock.stop();
  });

  it('stops reading the output once ready, and keeps the pipes flowing so Prism never blocks on them', async () => {
    const { mock, child } = await ready();
    for (const stream of [child.stdout, child.stderr]) {
      expect(stream.listenerCount('data')).toBe(0);
      expect(stream.readableFlowing).toBe(true);
    }
    await mock.stop();
  });

  it('"fatal" inside a word is not a failure', async () => {
    const started = startMock({ spec });
    const child = await nextChild();
    child.print('[CLI] ⚠  warning   a nonfatal problem in the spec\n[CLI] ℹ  info      fatalistic example names\n');
    await flush();
    child.print(listening(child.port));
    const mock = await started;
    expect(mock.url).toBe(`http://127.0.0.1:${child.port}`);
    await mock.stop();
  });
});

/** A startMock failure's reason (after `… serve <spec>: `) and Prism's output, its format pinned by the first test below. */
function failureOf(message: string): { reason: string; output: string | undefined } {
  const [head, output] = message.split("\n\nPrism's output:\n");
  const start = `startMock: Prism could not serve ${spec}: `;
  expect(head!.startsWith(start), message).toBe(true);
  return { reason: head!.slice(start.length), output };
}

describe('startMock rejects with what Prism printed', () => {
  it('a fatal line: the reason first, then the whole output; the process has exited', async () => {
    const started = rejection(startMock({ spec, port: 4011 }));
    const child = await nextChild();
    child.print('[CLI] …  awaiting  Starting Prism…\n');
    child.print('[CLI] ✖  fatal     Error parsing /x/spec.yaml: bad indentation  \n    at line 3\n', 'stderr');
    await flush();
    child.exit(1);
    const error = await started;
    // The message's format, pinned once here.
    expect(error.message).toBe(
      `startMock: Prism could not serve ${spec}: Error parsing /x/spec.yaml: bad indentation\n\nPrism's output:\n[CLI] …  awaiting  Starting Prism…\n[CLI] ✖  fatal     Error parsing /x/spec.yaml: bad indentation  \n    at line 3`,
    );
    expect(child.signals).toStrictEqual([]);
  });

  it('EADDRINUSE: that line is the reason', async () => {
    const started = rejection(startMock({ spec, port: 4012 }));
    const child = await nextChild();
    const inUse = 'Error: listen EADDRINUSE: address already in use 127.0.0.1:4012';
    child.print(`\n starting\n  ${inUse}  \nbye\n`);
    await flush();
    child.exit(1);
    // The port was given: what to do follows Prism's line.
    expect(failureOf((await started).message)).toEqual({
      reason: `${inUse}; port 4012 is in use on 127.0.0.1 (another mock or sandbox?): stop that one, give another port, or leave port out for a free one`,
      output: `starting\n  ${inUse}  \nbye`,
    });
  });

  it('a fatal line with no words after it points to the output', async () => {
    const started = rejection(startMock({ spec, port: 4013 }));
    const child = await nextChild();
    child.print('[CLI] ✖  fatal\n');
    await flush();
    child.exit(2);
    expect(failureOf((await started).message)).toEqual({ reason: 'see its output', output: '[CLI] ✖  fatal' });
  });

  it('a fatal line and Prism does not exit: the rest of its output is awaited 2 s, then it is stopped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const started = rejection(startMock({ spec, port: 4014 })).finally(() => (settled = true));
    const child = await nextChild();
    const fatal = '[CLI] ✖  fatal     first part';
    child.print(`${fatal}\n`);
    await flush();
    child.print('second part\n');
    await flush();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await started;
    expect(failureOf(error.message)).toEqual({ reason: 'first part', output: `${fatal}\nsecond part` });
    expect(child.signals).toStrictEqual(['SIGTERM']);
  });

  it('Prism exits before it is ready: its exit code, or the signal that ended it, and its output', async () => {
    const byCode = rejection(startMock({ spec, port: 4015 }));
    const first = await nextChild();
    first.print('  something went wrong  \n');
    await flush();
    first.exit(3);
    const byCodeMessage = (await byCode).message;
    expect(byCodeMessage.startsWith('startMock: Prism exited (3)')).toBe(true);
    expect(byCodeMessage.endsWith(`${spec}:\nsomething went wrong`)).toBe(true);

    const bySignal = rejection(startMock({ spec, port: 4016 }));
    const second = await nextChild();
    second.exit(null, 'SIGKILL');
    const bySignalMessage = (await bySignal).message;
    expect(bySignalMessage.startsWith('startMock: Prism exited (SIGKILL)')).toBe(true);
    expect(bySignalMessage.endsWith(`${spec}:\n`)).toBe(true);
  });

  it('the process cannot be spawned: that error, as it is', async () => {
    const started = rejection(startMock({ spec, port: 4017 }));
    const child = await nextChild();
    const failure = Object.assign(new Error('spawn EACCES'), { code: 'EACCES' });
    // As Node does: a process that could not be spawned has a negative exit code and no 'exit' event.
    child.exitCode = -13;
    child.emit('error', failure);
    expect(await started).toBe(failure);
    expect(child.signals).toStrictEqual([]);
  });

  it('not ready within readyTimeoutMs: the wait, the spec and the output; the process is stopped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const started = rejection(startMock({ spec, port: 4018, readyTimeoutMs: 1_000 })).finally(() => (settled = true));
    const child = await nextChild();
    const awaiting = '[CLI] …  awaiting  Starting Prism…';
    child.print(`\n ${awaiting}\n`);
    await flush();
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const message = (await started).message;
    expect(message).toContain('"Prism is listening"');
    expect(message.endsWith(`${spec} within 1000 ms:\n${awaiting}`)).toBe(true);
    expect(child.signals).toStrictEqual(['SIGTERM']);
  });

  it('readyTimeoutMs defaults to 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const started = rejection(startMock({ spec, port: 4019 })).finally(() => (settled = true));
    await nextChild();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await started).message).toMatch(/within 30000 ms:\n$/);
  });

  it('a spec that cannot be read: named with the error code, before anything is spawned', async () => {
    const missing = join(dir, 'missing.yaml');
    const message = (await rejection(startMock({ spec: missing }))).message;
    expect(message).toMatch(/^startMock: /);
    expect(message.endsWith(`${missing} (ENOENT)`)).toBe(true);
    expect(spawned).toStrictEqual([]);
  });
});

describe('a port chosen by startMock and taken meanwhile', () => {
  const addressInUse = async (child: FakePrism) => {
    child.print(`Error: listen EADDRINUSE: address already in use 127.0.0.1:${child.port}\n`);
    await flush();
    child.exit(1);
  };

  it('is tried again on another free port, up to 3 times in all', async () => {
    const started = startMock({ spec });
    await addressInUse(await nextChild());
    await addressInUse(await nextChild());
    const third = await nextChild();
    third.print(listening(third.port));
    const mock = await started;
    expect(mock.port).toBe(third.port);
    expect(spawned).toHaveLength(3);
    await mock.stop();
  });

  it('a third EADDRINUSE is the answer', async () => {
    const started = rejection(startMock({ spec }));
    for (let i = 0; i < 3; i += 1) await addressInUse(await nextChild());
    expect(failureOf((await started).message).reason).toMatch(/^Error: listen EADDRINUSE/);
    await flush();
    expect(spawned).toHaveLength(3);
  });

  it('another failure is not retried', async () => {
    const started = rejection(startMock({ spec }));
    (await nextChild()).exit(1);
    expect((await started).message.startsWith('startMock: Prism exited (1)')).toBe(true);
    await flush();
    expect(spawned).toHaveLength(1);
  });

  it('a port the caller gave is not retried', async () => {
    const started = rejection(startMock({ spec, port: 4020 }));
    await addressInUse(await nextChild());
    expect((await started).message).toMatch(/EADDRINUSE/);
    await flush();
    expect(spawned).toHaveLength(1);
  });
});

describe('stop()', () => {
  it('sends SIGTERM and resolves once Prism has exited; a second stop() sends nothing', async () => {
    const { mock, child } = await ready();
    let stopped = false;
    const stopping = mock.stop().then(() => (stopped = true));
    expect(child.signals).toStrictEqual(['SIGTERM']);
    expect(stopped).toBe(false);
    await stopping;
    expect(child.signalCode).toBe('SIGTERM');
    await mock.stop();
    expect(child.signals).toStrictEqual(['SIGTERM']);
  });

  it('a Prism that ignores SIGTERM gets SIGKILL after 5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { mock, child } = await ready();
    // It ignores SIGTERM, and takes its time to exit after SIGKILL.
    child.diesOf.clear();
    let stopped = false;
    const stopping = mock.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(child.signals).toStrictEqual(['SIGTERM']);
    await vi.advanceTimersByTimeAsync(1);
    expect(child.signals).toStrictEqual(['SIGTERM', 'SIGKILL']);
    // After SIGKILL it waits for the exit, however long that takes.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(stopped).toBe(false);
    child.exit(null, 'SIGKILL');
    await stopping;
    expect(stopped).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind to keep the process alive, once ready and once stopped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { mock } = await ready();
    expect(vi.getTimerCount()).toBe(0);
    await mock.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a Prism that exited by itself is not signalled', async () => {
    const { mock, child } = await ready();
    child.exit(0);
    await mock.stop();
    expect(child.signals).toStrictEqual([]);
  });
});

describe('freePort', () => {
  it('a port on 127.0.0.1 that nothing listens on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', done);
    });
    await new Promise((done) => server.close(done));
  });
});
