// `baas-pix-contract docs --serve`: the docs page with its try-it panel, served by a local process that
// makes each call through the package's own client, with the credentials it was started with (a token,
// or client credentials with their cache and refresh; a client certificate), its retries and masking.
// The page posts what to send and gets the answer back; it never receives a token, secret or key.
//
// A local server that acts with the user's credentials must be of no use to any other web page the
// user opens, so every request must pass every one of these rules (any failure: refused, nothing sent):
// - it listens on 127.0.0.1 only;
// - its path starts with a random secret, printed once in the served URL (another page cannot guess it);
// - its Host is the bound address (a DNS-rebinding name pointing at 127.0.0.1 is not);
// - an Origin, when sent, is this server's own, and a call must send it; Sec-Fetch-Site, when sent,
//   is same-origin (or none, for an address typed or opened by the user);
// - a call is JSON, at most MAX_CALL_BYTES, for an operation of the contract; a write only with
//   --allow-writes, as verify; the page may not set the fields that carry credentials.
// A value of the page's that the client refuses before sending (a header with a line break, a User-Agent
// outside the contract's rule) is the page's mistake: a 400 naming the field, never a 502. A call whose
// page went away, or that is in flight when the server stops (Ctrl-C), is cancelled at once, not waited for.
// What it logs is the request log's line (method, masked path, status, time), never a value.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBaasClient } from '../client/baas-client.js';
import { BaasValidationError } from '../errors.js';
import { isBaasOptionError } from '../option-rules.js';
import { operations, type OperationName } from '../generated/operations.js';
import { escapeControls, redactPath, redactUrl } from '../redact.js';
import { bundledSpecPath } from '../testing/mock.js';
import { connectionFrom, INSECURE_HTTP_WARNING } from './batch/options.js';
import type { CommandContext } from './command.js';
import { redoclyCli } from './docs.js';
import { renderDocs } from './docs-page.js';
import { FORBIDDEN_FIELD, forbiddenFieldRule } from './try-it.js';
import { formatLine, reachableUrl } from './request-log.js';
import { listenProblem, portFrom, stopRequested } from './server.js';
import type { CONNECTION_FLAGS, SAFETY_FLAGS } from './flags.js';
import type { Values } from './command.js';

/** The largest call the page may post (a body of the update is a few hundred bytes). */
export const MAX_CALL_BYTES = 256 * 1024;
const HOST = '127.0.0.1';
// The fields of a request that carry credentials (RFC 9110 Authorization and Proxy-Authorization,
// RFC 6265 Cookie): the process's own credentials are the only ones sent.
const CREDENTIAL_FIELDS = /^(authorization|proxy-authorization|cookie)$/i;
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export type DocsServeValues = Values<typeof CONNECTION_FLAGS & typeof SAFETY_FLAGS> & {
  port?: string | undefined;
  'allow-writes'?: boolean | undefined;
};

/** What the page posts: the operation and the values of its form. */
interface CallRequest {
  operationId: OperationName;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string | undefined;
}

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string');

/** The posted call, checked against the operation table; a Refused naming what is wrong otherwise. */
export function parseCall(text: string, allowWrites: boolean): CallRequest {
  let posted: unknown;
  try {
    posted = JSON.parse(text);
  } catch {
    throw new Refused(400, 'the call is not JSON');
  }
  const { operationId, query = {}, headers = {}, body } = (posted ?? {}) as Record<string, unknown>;
  if (typeof operationId !== 'string' || !Object.hasOwn(operations, operationId))
    throw new Refused(400, `operationId must be one of ${Object.keys(operations).join(', ')}`);
  const operation = operations[operationId as OperationName];
  if (operation.method !== 'GET' && !allowWrites)
    throw new Refused(
      403,
      `docs --serve sends reads only: ${operation.method} ${operation.path} writes; start it with --allow-writes to send it`,
    );
  if (!isStringRecord(query) || !isStringRecord(headers))
    throw new Refused(400, 'query and headers must be objects of strings');
  const known = new Set<string>(operation.query.map((p) => p.name));
  const unknown = Object.keys(query).find((name) => !known.has(name));
  if (unknown !== undefined) throw new Refused(400, `${operationId} has no query parameter ${JSON.stringify(unknown)}`);
  for (const name of Object.keys(headers)) {
    if (!FIELD_NAME.test(name)) throw new Refused(400, `${JSON.stringify(name)} is not a header field name`);
    if (CREDENTIAL_FIELDS.test(name))
      throw new Refused(400, `${name} is not taken from the page: docs --serve sends its own credentials`);
    if (FORBIDDEN_FIELD.test(name)) throw new Refused(400, forbiddenFieldRule(name));
  }
  if (body !== undefined && typeof body !== 'string') throw new Refused(400, 'body must be the JSON text to send');
  return { operationId: operationId as OperationName, query, headers, body };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the bound, the rest is read and dropped (so the client gets its answer), never kept.
      if (size > MAX_CALL_BYTES) reject(new Refused(413, `a call is at most ${MAX_CALL_BYTES} bytes`));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

// Every answer of this server: never cached, never framed by another page, no Referer (the URL holds
// the secret), and the page may reach nothing but this server.
const GUARD_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

export interface DocsServer {
  /** The page's address, the secret in its path. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface DocsServerOptions {
  port: number;
  allowWrites: boolean;
  page(callUrl: string, allowWrites: boolean): Promise<string>;
  /**
   * Makes the call; resolves with what the page is shown. `signal` aborts once nobody will read the
   * answer: the page went away, or the server is stopping.
   */
  call(
    request: CallRequest,
    signal: AbortSignal,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }>;
  log(line: string): void;
}

/** The server itself, apart from the command line, so a test can start one with a call of its own. */
export async function startDocsServer(options: DocsServerOptions): Promise<DocsServer> {
  const secret = randomBytes(24).toString('base64url');
  const prefix = `/${secret}/`;
  let port = 0;
  let html: Promise<string> | undefined;
  // The calls in flight, each cancelled by stop(): a Ctrl-C does not wait for a slow provider.
  const inFlight = new Set<AbortController>();
  let stopping = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const own = `http://${HOST}:${port}`;
    // The path as logged: the secret never, even the first segment of a guess at it.
    const rest = (req.url ?? '/').startsWith(prefix) ? (req.url ?? '/').slice(prefix.length - 1) : '/…';
    // `relayed`: what the provider answered a call (this server's own 200 carries it), said after the line.
    const answer = (status: number, type: string, body: string, relayed = '') => {
      res.writeHead(status, {
        ...GUARD_HEADERS,
        'content-type': type,
        ...(status === 413 ? { connection: 'close' } : {}),
      });
      res.end(method === 'HEAD' ? undefined : body);
      options.log(`docs --serve: ${formatLine(method, redactPath(rest), status, Date.now() - started, [])}${relayed}`);
    };
    const refuse = (status: number, message: string) =>
      answer(status, 'application/json', JSON.stringify({ error: message }));
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if (req.headers.host !== `${HOST}:${port}`)
      return refuse(403, `Host must be ${HOST}:${port}, the address this server is bound to`);
    if (origin !== undefined && origin !== own) return refuse(403, 'requests from another origin are refused');
    if (typeof site === 'string' && site !== 'same-origin' && site !== 'none')
      return refuse(403, 'requests from another site are refused');
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    if (!(path.length >= prefix.length && sameText(path.slice(0, prefix.length), prefix)))
      return refuse(
        404,
        'not found: this server answers only under the address docs --serve printed, which holds a secret; copy that address whole from its output',
      );
    const route = path.slice(prefix.length);
    if (route === '' && (method === 'GET' || method === 'HEAD')) {
      html ??= Promise.resolve().then(() => options.page('call', options.allowWrites));
      html.then(
        (page) => answer(200, 'text/html; charset=utf-8', page),
        (error: unknown) => {
          html = undefined;
          answer(
            503,
            'text/plain; charset=utf-8',
            `The docs page could not be rendered: ${(error as Error).message}\n`,
          );
        },
      );
      return;
    }
    if (route !== 'call')
      return refuse(404, `not found: the page is at the address docs --serve printed, calls at its /call`);
    if (method !== 'POST') return refuse(405, 'a call is a POST');
    // A form of another page cannot send JSON without a preflight, and a call must name its origin.
    if (origin !== own) return refuse(403, `a call must come from the page (Origin ${own})`);
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return refuse(415, 'a call is application/json');
    const cancel = new AbortController();
    inFlight.add(cancel);
    // The page's connection closed before its answer was written: nobody reads it, so the call is
    // cancelled, and its line says so instead of a status the page never got.
    res.on('close', () => {
      inFlight.delete(cancel);
      if (res.writableFinished) return;
      const why = stopping ? 'docs --serve stopped' : 'page went away';
      cancel.abort(new Error(why));
      options.log(
        `docs --serve: ${escapeControls(method)} ${redactPath(rest)} (${why} after ${Date.now() - started} ms; call cancelled)`,
      );
    });
    readBody(req)
      .then((text) => parseCall(text, options.allowWrites))
      .then(async (call) => ({ operationId: call.operationId, relayed: await options.call(call, cancel.signal) }))
      .then(
        ({ operationId, relayed }) => {
          if (cancel.signal.aborted) return;
          // The page's 200 is this server's; the provider's status is the one a reader looks for.
          answer(200, 'application/json', JSON.stringify(relayed), `; ${operationId} answered HTTP ${relayed.status}`);
        },
        (error: unknown) => {
          if (cancel.signal.aborted) return;
          if (error instanceof Refused) refuse(error.status, error.message);
          // The client's errors are built redacted (src/errors.ts): a network failure, a timeout, a token refused.
          else refuse(502, error instanceof Error ? error.message : 'the call failed');
        },
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    throw listenProblem(error, { host: HOST, port: options.port }) ?? error;
  });
  port = (server.address() as AddressInfo).port;
  let stopped: Promise<void> | undefined;
  return {
    url: `${reachableUrl(HOST, port)}${prefix}`,
    port,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        stopping = true;
        for (const call of inFlight) call.abort(new Error('docs --serve stopped'));
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

export async function runDocsServe(values: DocsServeValues, context: CommandContext): Promise<number> {
  const port = portFrom(values.port, 0);
  const connection = connectionFrom(values, context.env ?? process.env);
  if (connection.insecureHttp) context.err(INSECURE_HTTP_WARNING);
  const { credentials, baseUrl } = connection;
  const allowWrites = values['allow-writes'] === true;
  const cli = redoclyCli();
  const client = (userAgent: string | undefined) =>
    createBaasClient({
      baseUrl,
      token: credentials.token!,
      ...(credentials.fetch ? { fetch: credentials.fetch } : context.fetch ? { fetch: context.fetch } : {}),
      ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
      ...(userAgent ? { userAgent } : {}),
    });
  const server = await startDocsServer({
    port,
    allowWrites,
    log: context.out,
    page: (callUrl, writes) =>
      renderDocs({
        specJson: bundledSpecPath.replace(/\.yaml$/, '.json'),
        redoclyCli: cli,
        tryIt: {
          mode: {
            kind: 'relay',
            callUrl,
            allowWrites: writes,
            note: `Sends through the local docs --serve process to ${redactUrl(baseUrl)}, which holds the credentials (${credentials.kind}); this page never sees them. ${writes ? 'Reads and writes (--allow-writes).' : 'Reads only: the update is refused unless docs --serve was started with --allow-writes.'}`,
          },
        },
      }),
    async call(request, signal) {
      const operation = operations[request.operationId];
      const headerNames = new Set<string>(operation.header.map((p) => p.name.toLowerCase()));
      const header: Record<string, string> = {};
      const extra: Record<string, string> = {};
      let userAgent: string | undefined;
      for (const [name, value] of Object.entries(request.headers)) {
        if (name.toLowerCase() === 'user-agent') userAgent = value;
        else if (headerNames.has(name.toLowerCase())) header[name] = value;
        else extra[name] = value;
      }
      let body: unknown;
      if (request.body !== undefined && request.body.trim() !== '') {
        try {
          body = JSON.parse(request.body);
        } catch {
          throw new Refused(400, 'the body is not JSON: fix it in the page and press Send again');
        }
      }
      // The raw client: the call as the page wrote it (a body the contract refuses reaches the service,
      // which answers it), with the client's token, certificate, retries and byte limit.
      let called: ReturnType<typeof client>;
      try {
        called = client(userAgent);
      } catch (error) {
        // The only option the page gives is its User-Agent: the client's rule for it, named as the field.
        if (isBaasOptionError(error) && error.option === 'userAgent')
          throw new Refused(400, `User-Agent ${error.rule}; nothing was sent: fix it in the page and press Send again`);
        throw error;
      }
      // The client's one holder of its secrets (its token, every token its source issued): the answer
      // is masked through it.
      const secrets = credentials.secretsOf(called);
      const raw = called.raw as unknown as {
        request(
          method: string,
          path: string,
          init: object,
        ): Promise<{ response: Response; data?: unknown; error?: unknown }>;
      };
      const { response, data, error } = await raw
        .request(operation.method.toLowerCase(), operation.path, {
          params: { query: request.query, header },
          headers: extra,
          ...(body === undefined ? {} : { body }),
          parseAs: 'text',
          signal,
        })
        .catch((failure: unknown) => {
          // A header the page wrote that no request can carry: refused by the transport, nothing sent.
          if (failure instanceof BaasValidationError)
            throw new Refused(400, `${failure.message}; fix it in the page and press Send again`);
          throw failure;
        });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        // The answer as the page shows it: the credentials (and CPFs) masked, as on every other surface.
        headers[name] = secrets.credentials(value);
      });
      // openapi-fetch hands an error's body over parsed when it is JSON, as text otherwise.
      const answer = response.ok ? data : error;
      const text = answer === undefined ? '' : typeof answer === 'string' ? answer : JSON.stringify(answer);
      return { status: response.status, headers, body: secrets.credentials(text) };
    },
  });
  context.out(`Docs with a try-it panel, calling ${redactUrl(baseUrl)} through this process (${credentials.kind}):`);
  context.out(`  ${server.url}`);
  context.out(
    `  The address holds a secret: every request must carry it. Listening on ${HOST} only; ${allowWrites ? 'reads and writes (--allow-writes)' : 'reads only (--allow-writes sends the update too)'}. Ctrl-C to stop.`,
  );
  const reason = await stopRequested(context.closed);
  context.err(`docs --serve: ${reason}, stopping`);
  await server.stop();
  await credentials.close();
  return 0;
}
