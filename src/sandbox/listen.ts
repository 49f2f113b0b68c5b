// The sandbox over HTTP, through @hono/node-server (an optional peer, loaded only here).
import type { AddressInfo } from 'node:net';
import type { ListenOptions, RunningSandbox } from './sandbox.js';
import { DroppedConnection } from './faults.js';
import { escapeControls, maskDigits, redactPath, redactText } from '../redact.js';
import { checkOptions, isFunction, must, type OptionRules, within } from '../option-rules.js';

type Handler = (request: Request) => Promise<Response>;

/**
 * A request line fit for a log (src/redact.ts's rules): the path as our servers' logs show it (every
 * digit of a CPF-long run masked, any spelling), DocumentNumber and Account masked to their last two
 * digits, `limit` as sent when it is a number, every other value (a cursor too: it names where a client is) hidden, the
 * names masked as text; never a header.
 */
export function logLine(request: Request, status: number | 'dropped', ms: number): string {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    const shown = ['DocumentNumber', 'Account'].includes(name)
      ? maskDigits(value)
      : name === 'limit' && /^[0-9]{1,4}$/.test(value)
        ? value
        : '…';
    query.append(redactText(name), redactText(shown));
  }
  const search = url.search === '' ? '' : `?${escapeControls(query.toString())}`;
  // `→ HTTP 200 in 1.3 ms`: the status and the time between words, since only a letter breaks a run of
  // digits and the line may be masked again whole where it is shown (the command line masks every line):
  // next to a path's or a query's digits (`/x/123456 → 200 (1.5 ms)`), ours would make 11 and be masked.
  const shownStatus = status === 'dropped' ? status : `HTTP ${status}`;
  return `${escapeControls(request.method)} ${redactPath(url.pathname)}${search} → ${shownStatus} in ${ms.toFixed(1)} ms`;
}

async function loadAdapter(): Promise<typeof import('@hono/node-server')> {
  try {
    return await import('@hono/node-server');
  } catch (error) {
    throw new Error(
      'sandbox.listen() needs @hono/node-server: install it with `npm install --save-dev @hono/node-server@^2`.',
      { cause: error },
    );
  }
}

/** How long a connection may take to send a request head (idle ones too), by default. */
export const SANDBOX_HEADERS_TIMEOUT_MS = 10_000;
/** Connections the sandbox holds at once, by default. */
export const SANDBOX_MAX_CONNECTIONS = 256;

/**
 * The bounds on connections of every server the package starts on a port (the sandbox here, and the
 * command line's request log in front of the sandbox, the mock and the docs page): a client holding
 * connections open (idle, or trickling a head or a body) cannot keep them. Node closes a connection whose
 * head or request is late, checked this often; `maxConnections` is set on the server once it listens.
 */
export function connectionBounds(headersTimeoutMs = SANDBOX_HEADERS_TIMEOUT_MS) {
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: headersTimeoutMs * 3,
    connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    keepAliveTimeout: Math.min(5_000, headersTimeoutMs),
  };
}

// Node's own bounds (http.createServer), checked in one place: a timer must fit, a cap must be a count.
const MAX_TIMER_MS = 2 ** 31 - 1;

// Each option's rule, once: tsc fails here when ListenOptions gains or loses one.
const RULES: OptionRules<ListenOptions> = {
  port: within(
    (port) => Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65_535,
    'must be a whole number from 0 to 65535 (0, the default, picks a free one)',
  ),
  host: within(
    (host) => host === '127.0.0.1' || host === 'localhost',
    'must be "127.0.0.1" or "localhost": the sandbox serves on this machine only',
  ),
  log: must(isFunction, 'must be a function (line), e.g. log: console.log'),
  // Node checks the head timeout's double and triple, so a third of the longest timer is the most.
  headersTimeoutMs: within(
    (ms) => Number.isInteger(ms) && (ms as number) >= 1 && (ms as number) * 3 <= MAX_TIMER_MS,
    `must be a whole number of milliseconds from 1 to ${Math.floor(MAX_TIMER_MS / 3)} (default ${SANDBOX_HEADERS_TIMEOUT_MS})`,
  ),
  maxConnections: within(
    (count) => Number.isInteger(count) && (count as number) >= 1,
    `must be a whole number of at least 1 (default ${SANDBOX_MAX_CONNECTIONS})`,
  ),
};

/**
 * Node's own words for a port that cannot be had ("listen EADDRINUSE: address already in use") name no
 * way out. The error keeps Node's `code` (EADDRINUSE), so a caller can still tell it apart.
 */
function portTaken(error: unknown, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  if (code !== 'EADDRINUSE') return error;
  return Object.assign(
    new Error(
      `sandbox.listen(): port ${port} is in use on 127.0.0.1 (another sandbox or mock?): stop that one, give another port, or leave port out for a free one`,
      { cause: error },
    ),
    { code },
  );
}

export async function listen(handle: Handler, options: ListenOptions): Promise<RunningSandbox> {
  checkOptions('sandbox.listen()', options, RULES);
  const { port: asked = 0 } = options;
  const { createAdaptorServer } = await loadAdapter();
  const host = options.host ?? '127.0.0.1';
  const { headersTimeoutMs = SANDBOX_HEADERS_TIMEOUT_MS, maxConnections = SANDBOX_MAX_CONNECTIONS } = options;
  const log = options.log;
  const server = createAdaptorServer({
    // A hostile client holding connections open (idle, or trickling a head or a body) cannot keep them.
    serverOptions: connectionBounds(headersTimeoutMs),
    // By default the adapter swaps the process's global Request and Response for its own: a test's
    // other users of them (msw's `instanceof Response` among them) would then see foreign objects.
    overrideGlobalObjects: false,
    fetch: async (request, env) => {
      const started = performance.now();
      try {
        const response = await handle(request);
        log?.(logLine(request, response.status, performance.now() - started));
        return response;
      } catch (error) {
        if (!(error instanceof DroppedConnection)) throw error;
        log?.(logLine(request, 'dropped', performance.now() - started));
        env.incoming.socket.destroy();
        // Never sent: the socket is gone.
        return new Response();
      }
    },
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: unknown) => reject(portTaken(error, asked));
    server.once('error', failed);
    server.listen(asked, host === 'localhost' ? '127.0.0.1' : host, () => {
      // Stryker disable next-line StringLiteral: a listener left on would only reject a promise already settled.
      server.off('error', failed);
      resolve();
    });
  });
  (server as import('node:http').Server).maxConnections = maxConnections;
  const port = (server.address() as AddressInfo).port;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        (server as import('node:http').Server).closeAllConnections();
        server.close(() => resolve());
      });
      return stopping;
    },
  };
}
