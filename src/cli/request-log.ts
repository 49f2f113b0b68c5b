// A small HTTP front that forwards every request to a server of ours and logs one line per request:
// method, path, status, time, and for a 422 the fields at fault. It never logs a query string, a
// header or a body value, so tokens and CPF numbers cannot reach the log.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';

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
}

// A 422 body larger than this is not read for its fields (the response itself passes untouched).
const MAX_PROBLEM_BYTES = 64 * 1024;
// Eleven digits or more in a path may be a CPF: masked, in case a future path carries one.
const LONG_DIGITS = /\d{11,}/g;

/** The path without its query string (query values may be personal data), long digit runs masked. */
export const loggedPath = (url: string | undefined): string =>
  (url ?? '/').split('?')[0]!.replace(LONG_DIGITS, (digits) => '*'.repeat(digits.length));

/**
 * The fields at fault in a 422: Prism's `sl-violations` header (what it really found wrong), else the
 * `violations[].property` of the problem body (our sandbox). Only names and pointers, never values.
 */
export function faultyFields(headers: IncomingMessage['headers'], body: string): string[] {
  const header = headers['sl-violations'];
  if (typeof header === 'string') {
    try {
      const violations = JSON.parse(header) as { location?: unknown[]; message?: string }[];
      const fields = violations.map((v) => {
        const parts = (v.location ?? []).filter((part) => part !== 'request').map(String);
        // A missing or unknown property is reported on its parent, its name in the message.
        const named = /(?:found|required property) '([^']+)'/.exec(v.message ?? '')?.[1];
        return [...parts, ...(named ? [named] : [])].join('.');
      });
      return [...new Set(fields.filter(Boolean))];
    } catch {
      // Not JSON: fall through to the body.
    }
  }
  try {
    const problem = JSON.parse(body) as { violations?: { property?: unknown }[] };
    return (problem.violations ?? []).map((v) => v.property).filter((p): p is string => typeof p === 'string');
  } catch {
    return [];
  }
}

export function formatLine(method: string, path: string, status: number, ms: number, fields: string[]): string {
  const fault = status === 422 ? ` fields: ${fields.length ? fields.join(', ') : '(not named)'}` : '';
  return `${method} ${path} ${status}${fault} (${ms} ms)`;
}

export async function startRequestLog(options: RequestLogOptions): Promise<RequestLog> {
  const target = new URL(options.target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const path = loggedPath(req.url);
    // A request a server received always has a method, and an answer always has a status.
    const method = req.method!;
    const upstream = httpRequest(
      { hostname: target.hostname, port: target.port, method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        const status = answer.statusCode!;
        const chunks: Buffer[] = [];
        let size = 0;
        if (status === 422) {
          answer.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_PROBLEM_BYTES) chunks.push(chunk);
          });
        }
        answer.on('end', () => {
          const body = size <= MAX_PROBLEM_BYTES ? Buffer.concat(chunks).toString() : '';
          options.log(formatLine(method, path, status, Date.now() - started, status === 422 ? faultyFields(answer.headers, body) : []));
        });
        res.writeHead(status, answer.statusMessage, answer.headers);
        // A server behind that closes mid-answer: the client's answer is cut off too (not left open).
        pipeline(answer, res, (error: NodeJS.ErrnoException | null) => {
          if (error && !answer.complete) options.log(`${method} ${path} ${status} (answer cut off: ${error.code ?? error.message})`);
        });
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      // Once the answer has started (a reset mid-answer), the pipeline above cuts it off and logs it.
      if (res.headersSent) return;
      options.log(`${method} ${path} 502 (server behind unreachable: ${error.code ?? error.message})`);
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad gateway: the server behind the request log did not answer.\n');
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
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
