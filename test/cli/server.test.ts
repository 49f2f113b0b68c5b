// What every server command shares, in process: --port and --host, the banner and hints, and the
// stop: on SIGINT, SIGTERM or SIGHUP, or once the parent process is gone, the front and the server
// behind it both end, and no handler or timer is left behind.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import {
  DEFAULT_HOST,
  listenAddress,
  freePortNear,
  listenProblem,
  serveUntilStopped,
  serverFlags,
  type Backend,
} from '../../src/cli/server.js';
import { startFaultServer, type FaultServer } from '../support/fault-server.js';
import { portIsFree } from './processes.js';
import { STOP_SIGNALS, addedListeners, capture, sendStop, signalListeners, until } from './in-process.js';

describe('--port and --host', () => {
  it('default to the given port and 127.0.0.1', () => {
    expect(DEFAULT_HOST).toBe('127.0.0.1');
    expect(listenAddress({}, 4321)).toEqual({ host: '127.0.0.1', port: 4321 });
  });

  it('take any whole port from 0 (a free one) to 65535, and any non-empty host', () => {
    expect(listenAddress({ port: '0', host: '0.0.0.0' }, 1)).toEqual({ host: '0.0.0.0', port: 0 });
    expect(listenAddress({ port: '65535', host: '::1' }, 1)).toEqual({ host: '::1', port: 65_535 });
    expect(listenAddress({ port: '8080' }, 1)).toEqual({ host: '127.0.0.1', port: 8080 });
  });

  it.each(['-1', '65536', '1.5', 'eighty', '', ' '])('reject the port "%s" as a usage error that quotes it', (port) => {
    const attempt = () => listenAddress({ port }, 1);
    expect(attempt).toThrow(UsageError);
    // The usage error's words are pinned in help.test.ts: here, the option, the range and the value.
    expect(attempt).toThrow(/^--port .*65535 \(default 1; 0 picks a free one\), e\.g\. --port 8080, /);
    expect(attempt).toThrow(`got "${port}"`);
  });

  it.each(['', '  '])('reject the host "%s" as a usage error', (host) => {
    const attempt = () => listenAddress({ host }, 1);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/^--host .*empty$/);
  });

  it("are described with the default port and host in a command's help", () => {
    // The words are pinned with the whole help in help.test.ts.
    const { port, host, ...more } = serverFlags(4010);
    expect(port).toMatchObject({ type: 'string', short: 'p', value: 'N' });
    expect(port.help.join(' ')).toMatch(/4010.*0 picks a free one/);
    expect(host.help.join(' ')).toContain('127.0.0.1');
    expect(more).toEqual({});
  });
});

describe('serveUntilStopped', () => {
  let upstream: FaultServer | undefined;
  let blocker: Server | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await upstream?.close();
    upstream = undefined;
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    blocker = undefined;
  });

  async function backend(): Promise<Backend & { stopped: number }> {
    upstream = await startFaultServer();
    upstream.handle((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('behind'));
    const served = upstream;
    const result = {
      url: served.url,
      stopped: 0,
      stop: async () => {
        result.stopped += 1;
      },
    };
    return result;
  }

  /** Starts serving on a free port; resolves once the banner is out, with the front's URL. */
  async function serve(hints?: (url: string) => string[]) {
    const before = signalListeners();
    const io = capture();
    const behind = await backend();
    const done = serveUntilStopped('Thing', behind, { host: '127.0.0.1', port: 0 }, io, hints);
    let code: number | undefined;
    void done.then((c) => (code = c));
    const listening = /^Thing listening on (http:\/\/127\.0\.0\.1:\d+) \(Ctrl-C to stop\)$/;
    await until(() => io.stdout.some((line) => listening.test(line)) || code !== undefined);
    const url = io.stdout.map((line) => listening.exec(line)?.[1]).find(Boolean);
    expect(url, io.stdout.join('\n')).toBeDefined();
    return { before, io, behind, done, url: url!, port: Number(new URL(url!).port), exit: () => code };
  }

  for (const signal of STOP_SIGNALS) {
    it(`on ${signal}: says so on stderr, stops the front and the server behind, exits 0, and keeps no handler`, async () => {
      const run = await serve((url) => [`  try: ${url}/here`, '  second hint']);
      // The hints, then last the line that says where it listens (pinned once here).
      expect(run.io.stdout).toEqual([
        `  try: ${run.url}/here`,
        '  second hint',
        `Thing listening on ${run.url} (Ctrl-C to stop)`,
      ]);
      // The front forwards to the server behind and logs the request.
      expect(await (await fetch(`${run.url}/path?q=1`)).text()).toBe('behind');
      await until(() => run.io.stdout.length === 4);
      expect(run.io.stdout[3]).toMatch(/^GET .path HTTP 200 in /);
      for (const other of STOP_SIGNALS) expect(addedListeners(run.before, other), other).toHaveLength(1);

      expect(sendStop(run.before, signal)).toBe(1);
      expect(await run.done).toBe(0);
      expect(run.io.stderr).toEqual([`Thing: ${signal}, stopping`]);
      expect(run.behind.stopped).toBe(1);
      expect(await portIsFree(run.port)).toBe(true);
      for (const other of STOP_SIGNALS) expect(addedListeners(run.before, other), other).toEqual([]);
    });
  }

  it('prints no hint unless given some', async () => {
    const run = await serve();
    expect(run.io.stdout).toHaveLength(1);
    expect(run.io.stdout[0]).toContain(run.url);
    sendStop(run.before, 'SIGINT');
    expect(await run.done).toBe(0);
  });

  it('stops once its parent process is gone (checked each second), and leaves no timer running', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const parent = process.ppid;
    const ppid = vi.spyOn(process, 'ppid', 'get').mockReturnValue(parent);
    const run = await serve();
    expect(vi.getTimerCount()).toBe(1);
    // Same parent: the checks find nothing.
    vi.advanceTimersByTime(3_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(run.exit()).toBeUndefined();
    // Orphaned: the next check, a second later and not before, stops the server.
    ppid.mockReturnValue(1);
    vi.advanceTimersByTime(999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(run.exit()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(await run.done).toBe(0);
    expect(run.io.stderr).toEqual(['Thing: parent exited, stopping']);
    expect(run.behind.stopped).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    for (const signal of STOP_SIGNALS) expect(addedListeners(run.before, signal), signal).toEqual([]);
  });

  it('stops the server behind when the front cannot listen (port taken), and says to pick another port or --port 0', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    // The next port up is taken too: the hint must not suggest it (it suggested port + 1 whatever it was).
    const next = port === 65_535 ? port - 1 : port + 1;
    const second = createServer();
    const secondTaken = await new Promise<boolean>((resolve) => {
      second.once('error', () => resolve(false));
      second.listen(next, '127.0.0.1', () => resolve(true));
    });
    onTestFinished(() => new Promise<void>((resolve) => (secondTaken ? second.close(() => resolve()) : resolve())));
    const behind = await backend();
    const io = capture();
    const failure = await serveUntilStopped('Thing', behind, { host: '127.0.0.1', port }, io).then(
      () => new Error('it listened'),
      (error: Error) => error,
    );
    expect(failure.message).toContain(`port ${port} is in use`);
    const suggested = Number(/--port (\d+) \(free just now\)/.exec(failure.message)?.[1]);
    expect(suggested).not.toBe(port);
    expect(suggested).not.toBe(next);
    // Free when it was printed: it can be listened on now.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(suggested, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(failure.message).toContain('--port 0');
    expect(failure.cause).toMatchObject({ code: 'EADDRINUSE' });
    expect(behind.stopped).toBe(1);
    expect(io.stdout).toEqual([]);
  });

  it('freePortNear: the first port after the taken one that can be listened on now, counting down from 65535', async () => {
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => held.close(() => resolve())));
    const port = (held.address() as { port: number }).port;
    const free = await freePortNear('127.0.0.1', port - 1);
    expect(free).toBeDefined();
    expect(free).not.toBe(port);
    expect(await freePortNear('127.0.0.1', 65_535)).toBeLessThan(65_535);
  });

  it('names the way out of each listen failure it knows, and leaves any other as it is', () => {
    const at = { host: '10.9.8.7', port: 80 };
    expect(listenProblem({ code: 'EACCES' }, at)?.message).toMatch(/10\.9\.8\.7:80.*--port 0/);
    expect(listenProblem({ code: 'EADDRNOTAVAIL' }, at)?.message).toMatch(/^10\.9\.8\.7 .*--host 127\.0\.0\.1/);
    expect(listenProblem({ code: 'EADDRINUSE' }, { host: 'h', port: 65_535 }, 65_534)?.message).toContain(
      '--port 65534 (free just now)',
    );
    // No port seen free: no number is guessed, only --port 0.
    expect(listenProblem({ code: 'EADDRINUSE' }, { host: 'h', port: 4020 })?.message).toBe(
      'port 4020 is in use on h (another sandbox or mock?): stop that one, or let the system pick a free one with --port 0',
    );
    expect(listenProblem({ code: 'ECONNRESET' }, at)).toBeUndefined();
    expect(listenProblem(undefined, at)).toBeUndefined();
  });
});
