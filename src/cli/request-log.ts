// A small HTTP front that forwards every request to a server of ours and logs one line per request:
// method, path, status, time (each number of ours between words: see formatLine), and for a 422 the fields at fault. It never logs a query string, a
// header or a body value, so tokens and CPF numbers cannot reach the log; a field at fault is named
// only when the contract defines it (./contract-fields.ts), and every part of a line has its control
// characters escaped (escapeControls of src/redact.ts), since all of it comes from a client. A request its client
// abandons is cancelled behind at once and gets its own line.
// Sends outside the transport: a proxy in front of a server of ours (the sandbox, Prism), which relays a
// client's request and answer as streams, untouched; the timeouts, redirects and limits are that client's.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { bodyField, parameterField, UNKNOWN_FIELD } from './contract-fields.js';
import { escapeControls, redactPath } from '../redact.js';
import { connectionBounds, SANDBOX_MAX_CONNECTIONS } from '../sandbox/listen.js';

export interface RequestLog {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface RequestLogOptions {
  /** Base URL of the server behind, e.g. http://127.0.0.1:41234. */
  target: string;
  host: string;
  port: number;
  log(line: string): void;
  /**
   * Pages this front serves itself, by path (the sandbox's /docs), instead of forwarding: each
   * rendered on its first request and kept. A page that cannot be rendered (it rejects, or throws at
   * once) answers 503 saying why.
   */
  pages?: Readonly<Record<string, () => Promise<string>>>;
}

// A 422 body larger than this is not read for its fields (the response itself passes untouched).
const MAX_PROBLEM_BYTES = 64 * 1024;

/** A field at fault as Prism names it in `sl-violations`: `location` is `['request', where, ...path]`. */
function prismField(location: unknown, message: unknown): string {
  const parts = Array.isArray(location) ? location.map(String) : [];
  const [request, where, ...path] = parts;
  // A missing or unknown property is reported on its parent, its name in the message.
  const named = typeof message === 'string' ? /(?:found|required property) '([^']+)'/.exec(message)?.[1] : undefined;
  const segments = named === undefined ? path : [...path, named];
  if (request !== 'request') return UNKNOWN_FIELD;
  if (where === 'body') return bodyField(segments);
  // Parameters are flat: one segment, the parameter's name.
  if ((where === 'query' || where === 'header') && segments.length === 1) return parameterField(segments[0]!);
  return UNKNOWN_FIELD;
}

/** A field at fault as our sandbox names it in a violation's `property`: a body pointer, `body`, or a parameter. */
function sandboxField(property: string): string {
  if (property === 'body') return bodyField([]);
  if (!property.startsWith('/')) return parameterField(property);
  return bodyField(
    property
      .slice(1)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')),
  );
}

/**
 * The fields at fault in a 422: Prism's `sl-violations` header (what it really found wrong), else the
 * `violations[].property` of the problem body (our sandbox). A name comes from the client's request, so
 * only a field of the contract is shown (a body field as its JSON pointer, a parameter by its name);
 * any other is UNKNOWN_FIELD. Never a value.
 */
export function faultyFields(headers: IncomingMessage['headers'], body: string): string[] {
  const header = headers['sl-violations'];
  if (typeof header === 'string') {
    try {
      const violations = JSON.parse(header) as ({ location?: unknown; message?: unknown } | null)[];
      return [...new Set(violations.map((v) => prismField(v?.location, v?.message)))];
    } catch {
      // Not JSON, or not a list: fall through to the body.
    }
  }
  try {
    const problem = JSON.parse(body) as { violations?: ({ property?: unknown } | null)[] } | null;
    const properties = (problem?.violations ?? [])
      .map((v) => v?.property)
      .filter((p): p is string => typeof p === 'string');
    return [...new Set(properties.map(sandboxField))];
  } catch {
    return [];
  }
}

/**
 * One line for an answer that ended (`GET /a HTTP 200 in 5 ms`, `PUT /a HTTP 422 in 7 ms, fields: /email`);
 * `path` is already as redactPath shows it.
 *
 * Each number of ours (the status, the time) stands between words (`HTTP`, `in`, `ms`). The line is masked
 * again where it is shown (src/cli/output.ts masks every line whole), and only a letter breaks a run of
 * digits (SECURITY.md, "The rule for a CPF"): a status and a time written next to the digits of a path or
 * a field (`GET /x/123456 404 (12 ms)`) would make 11 digits and be masked with them. The same holds for
 * every line of this file and for the sandbox's (src/sandbox/listen.ts `logLine`).
 */
export function formatLine(method: string, path: string, status: number, ms: number, fields: string[]): string {
  const fault =
    status === 422 ? `, fields: ${fields.length ? fields.map(escapeControls).join(', ') : '(not named)'}` : '';
  return `${escapeControls(method)} ${path} HTTP ${status} in ${ms} ms${fault}`;
}

export async function startRequestLog(options: RequestLogOptions): Promise<RequestLog> {
  const target = new URL(options.target);
  let stopping = false;
  const rendered = new Map<string, Promise<string>>();
  // The sandbox's bounds on connections (src/sandbox/listen.ts): the request log is what a client reaches.
  const server = createServer(connectionBounds(), (req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const path = redactPath(req.url);
    // A request a server received always has a method, and an answer always has a status.
    const method = req.method!;
    const pathname = new URL(req.url ?? '/', 'http://front.invalid').pathname;
    const page = Object.hasOwn(options.pages ?? {}, pathname) ? options.pages![pathname]! : undefined;
    if (page && (method === 'GET' || method === 'HEAD')) {
      // A page that throws at once (a missing peer, found when it is first asked for) is a 503 like one
      // that rejects, never an exception that ends the server.
      if (!rendered.has(pathname)) rendered.set(pathname, Promise.resolve().then(page));
      rendered.get(pathname)!.then(
        (html) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(method === 'HEAD' ? undefined : html);
          options.log(formatLine(method, path, 200, Date.now() - started, []));
        },
        (error: unknown) => {
          // Not kept: the next request tries again (e.g. once the missing peer is installed).
          rendered.delete(pathname);
          const why = error instanceof Error ? error.message : String(error);
          res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`The docs page could not be rendered: ${why}\n`);
          options.log(formatLine(method, path, 503, Date.now() - started, []));
        },
      );
      return;
    }
    // The method as a line shows it (formatLine escapes it itself).
    const shown = escapeControls(method);
    // Exactly one line per request, whichever of its ends comes first.
    let logged = false;
    const log = (line: string): void => {
      if (logged) return;
      logged = true;
      options.log(line);
    };
    // Set once the server behind failed (unreachable, or cut off mid-answer): that path logs the line.
    let upstreamFailed = false;
    let status: number | undefined;
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        status = answer.statusCode!;
        const chunks: Buffer[] = [];
        let size = 0;
        if (status === 422) {
          answer.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_PROBLEM_BYTES) chunks.push(chunk);
          });
        }
        answer.on('error', () => (upstreamFailed = true));
        answer.on('aborted', () => (upstreamFailed = true));
        answer.on('end', () => {
          const body = size <= MAX_PROBLEM_BYTES ? Buffer.concat(chunks).toString() : '';
          log(
            formatLine(
              method,
              path,
              status!,
              Date.now() - started,
              status === 422 ? faultyFields(answer.headers, body) : [],
            ),
          );
        });
        res.writeHead(status, answer.statusMessage, answer.headers);
        // A server behind that closes mid-answer: the client's answer is cut off too (not left open).
        pipeline(answer, res, (error: NodeJS.ErrnoException | null) => {
          if (error && !answer.complete && upstreamFailed)
            log(`${shown} ${path} HTTP ${status} (answer cut off: ${escapeControls(error.code ?? error.message)})`);
        });
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      // A client gone away (or a stop) destroyed the request: already logged below.
      if (logged || res.destroyed) return;
      upstreamFailed = true;
      // Once the answer has started (a reset mid-answer), the pipeline above cuts it off and logs it.
      if (res.headersSent) return;
      log(`${shown} ${path} HTTP 502 (server behind unreachable: ${escapeControls(error.code ?? error.message)})`);
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad gateway: the server behind the request log did not answer.\n');
    });
    // The client's connection closed before its answer was complete: it went away mid-request or
    // mid-answer (or the log is stopping). Nobody will read the answer, so the request behind is
    // cancelled at once rather than left to the server behind's own timeout.
    res.on('close', () => {
      if (res.writableFinished || upstreamFailed) return;
      upstream.destroy();
      const shownStatus = status === undefined ? '' : ` HTTP ${status}`;
      log(
        `${shown} ${path}${shownStatus} (${stopping ? 'request log stopped' : 'client went away'} after ${Date.now() - started} ms)`,
      );
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.maxConnections = SANDBOX_MAX_CONNECTIONS;
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  return {
    url: reachableUrl(options.host, port),
    port,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        stopping = true;
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/**
 * The URL to call a server listening on `host`: for every interface (0.0.0.0, ::) this machine's loopback,
 * since http://0.0.0.0 is no address to call, and the client and verify rightly refuse plain http to a host
 * that is not loopback. Any other host as given (an IPv6 one in brackets).
 */
export function reachableUrl(host: string, port: number): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::' || host === '[::]') return `http://[::1]:${port}`;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}
