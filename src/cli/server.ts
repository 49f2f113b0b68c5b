// What every server of the command line shares: --port and --host, 127.0.0.1 unless asked, one log
// line per request (./request-log.ts, in front of the real server), and a clean stop on SIGINT,
// SIGTERM or SIGHUP: the front, the server behind it and any process it started all end.
import { createServer } from 'node:net';
import { type CommandContext, type Flag, UsageError } from './command.js';
import { startRequestLog } from './request-log.js';

export const DEFAULT_HOST = '127.0.0.1';

/** `--port` and `--host`, the same for every server of the command line. */
export const serverFlags = (defaultPort: number) =>
  ({
    port: {
      type: 'string',
      short: 'p',
      value: 'N',
      help: [`port to listen on (default ${defaultPort}; 0 picks a free one)`],
    },
    host: {
      type: 'string',
      value: 'H',
      help: [`interface to listen on (default ${DEFAULT_HOST}; 0.0.0.0 opens it to the network)`],
    },
  }) as const satisfies Record<string, Flag>;

/**
 * `--port`'s value, for every server of the command line (`docs --serve` too): the rule, what it
 * defaults to and an example of the right form, then the value given.
 */
export function portFrom(raw: string | undefined, defaultPort: number): number {
  if (raw === undefined) return defaultPort;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    const fallback =
      defaultPort === 0 ? '0, the default, picks a free one' : `default ${defaultPort}; 0 picks a free one`;
    throw new UsageError(`--port must be a whole number from 0 to 65535 (${fallback}), e.g. --port 8080, got "${raw}"`);
  }
  return port;
}

export function listenAddress(
  values: { port?: string; host?: string },
  defaultPort: number,
): { host: string; port: number } {
  const port = portFrom(values.port, defaultPort);
  const host = values.host ?? DEFAULT_HOST;
  if (host.trim() === '') throw new UsageError('--host must not be empty');
  return { host, port };
}

/** How many ports after a taken one are tried for the hint (each is a listen and a close, a few ms). */
const PORTS_TRIED = 20;

/**
 * A port near `port` that is free on `host` now: the next ones up (down from 65535), each tried by
 * listening on it and closing at once. Undefined when none of them is; the hint then says --port 0.
 */
export async function freePortNear(host: string, port: number): Promise<number | undefined> {
  for (let step = 1; step <= PORTS_TRIED; step += 1) {
    const candidate = port + step <= 65_535 ? port + step : port - step;
    if (candidate < 1024) break;
    if (await canListen(host, candidate)) return candidate;
  }
  return undefined;
}

function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * What to do when the port cannot be had: in use, or not ours to take. Node's own words ("listen
 * EADDRINUSE: address already in use") name neither a way out nor the flag. `freePort` is one that
 * was free just now (freePortNear): only a port seen free is suggested.
 */
export function listenProblem(
  error: unknown,
  address: { host: string; port: number },
  freePort?: number,
): Error | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  const where = `${address.host}:${address.port}`;
  if (code === 'EADDRINUSE')
    return new Error(
      `port ${address.port} is in use on ${address.host} (another sandbox or mock?): stop that one, ${freePort === undefined ? '' : `pick another port with --port ${freePort} (free just now), `}or let the system pick a free one with --port 0`,
      { cause: error },
    );
  if (code === 'EACCES')
    return new Error(
      `not allowed to listen on ${where} (ports below 1024 need privileges): pick another port with --port N, or --port 0`,
      { cause: error },
    );
  if (code === 'EADDRNOTAVAIL')
    return new Error(
      `${address.host} is not an address of this machine: give --host 127.0.0.1, or the address of one of its interfaces`,
      { cause: error },
    );
  return undefined;
}

/** A server the command line started on 127.0.0.1 (any port), to be put behind the request log. */
export interface Backend {
  url: string;
  stop(): Promise<void>;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
// How often to look whether the parent is gone (npm, a shell, a test runner killed with SIGKILL).
const PARENT_CHECK_MS = 1_000;

/**
 * Resolves with the signal that asks this process to stop, 'parent exited' once it is orphaned, or
 * 'output closed' once its standard output or error is (`sandbox --list | head`: the request log has
 * nowhere to go, and the pipeline waits for this process).
 */
export function stopRequested(closed: AbortSignal | undefined): Promise<string> {
  const parent = process.ppid;
  return new Promise((resolve) => {
    const onClosed = () => done('output closed');
    if (closed?.aborted) queueMicrotask(onClosed);
    else closed?.addEventListener('abort', onClosed, { once: true });
    const watch = setInterval(() => {
      if (process.ppid !== parent) done('parent exited');
    }, PARENT_CHECK_MS);
    const handlers = STOP_SIGNALS.map((signal) => [signal, () => done(signal)] as const);
    function done(reason: string): void {
      clearInterval(watch);
      closed?.removeEventListener('abort', onClosed);
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolve(reason);
    }
    for (const [signal, handler] of handlers) process.on(signal, handler);
  });
}

/**
 * Serves `backend` on host:port through the request log until a stop signal, then stops both.
 * Resolves with the exit code (0: stopped on request).
 */
export async function serveUntilStopped(
  name: string,
  backend: Backend,
  address: { host: string; port: number },
  context: CommandContext,
  hints: (url: string) => string[] = () => [],
  pages?: Readonly<Record<string, () => Promise<string>>>,
  /** The hints are synthetic credentials (the sandbox's, the mock's placeholder), shown unmasked (`CommandContext.outSynthetic`). */
  synthetic = false,
): Promise<number> {
  const front = await startRequestLog({
    target: backend.url,
    ...address,
    log: context.out,
    ...(pages ? { pages } : {}),
  }).catch(async (error: unknown) => {
    await backend.stop();
    const inUse = (error as NodeJS.ErrnoException | null | undefined)?.code === 'EADDRINUSE';
    const free = inUse ? await freePortNear(address.host, address.port) : undefined;
    throw listenProblem(error, address, free) ?? error;
  });
  // The hints first, and last the line that says requests are taken: what stays on the screen.
  for (const line of hints(front.url))
    if (synthetic && context.outSynthetic) context.outSynthetic(line);
    else context.out(line);
  const everywhere = ['0.0.0.0', '::', '[::]'].includes(address.host)
    ? `, and on every interface (${address.host})`
    : '';
  context.out(`${name} listening on ${front.url}${everywhere} (Ctrl-C to stop)`);
  const reason = await stopRequested(context.closed);
  context.err(`${name}: ${reason}, stopping`);
  await Promise.allSettled([front.stop(), backend.stop()]);
  return 0;
}
