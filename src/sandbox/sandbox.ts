// The stateful implementation of the contract: one fetch handler, used in process, over HTTP, or by MSW.
import { randomUUID } from 'node:crypto';
import type { NaturalPersonUpdate, UpdateResult, Violation } from '../types.js';
import {
  validateListPixKeysQuery,
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
  type ValidationIssue,
} from '../validation/index.js';
import { Cursors } from './cursor.js';
import { buildWorld, keyAt, type CustomerData, type SandboxClient, type SeededAccount, type World } from './data.js';
import { compileAccount, pageBytes } from './page.js';
import { BytesResponse } from './bytes-response.js';
import { DroppedConnection, FaultQueue, type Fault } from './faults.js';
import { badRequest, invalid, json, problem, statusHeaders, unauthorized } from './problems.js';
import { countProblem, SANDBOX_TOKENS, totalProblem, ttlProblem, type SizeOption } from './limits.js';
import { IssuedTokens } from './issued-tokens.js';
import { listen as listenOverHttp } from './listen.js';
import { TOKEN_PATH, tokenEndpoint } from './oauth.js';
import { RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { bearerToken, lightRequest, preference, readJsonBody, type SandboxRequest } from './request.js';
import { DOCUMENTED, LIMIT_DEFAULT, SINGLE_VALUED_QUERY, type OperationId } from './spec.js';
import { snapshotOf, type SandboxSnapshot } from './snapshot.js';

export interface SandboxOptions {
  /** Same seed, same data, byte for byte (for a given version of this package and of Faker). Default 'baas-pix-contract'. */
  seed?: string | number;
  /**
   * How many API clients (tokens). Default 1; 1 to 1,000.
   *
   * The sizes are bounded so that a sandbox stays well under 256 MB (about 40 MB per 100,000 keys):
   * at most 10,000 customer accounts in all (clients × accountsPerClient) and 250,000 keys in all
   * (clients × accountsPerClient × keysPerAccount); see `SANDBOX_LIMITS`. Anything else throws a
   * RangeError naming the option and its limit, before anything is built.
   */
  clients?: number;
  /** Customer accounts per client. Default 2; 1 to 1,000 (and 10,000 accounts in all, see `clients`). */
  accountsPerClient?: number;
  /**
   * PIX keys per account. Default 5 (one of each type, active, held by the account's customer);
   * 0 to 100,000 (and 250,000 keys in all, see `clients`). From the sixth key of an account on, a
   * few keys have another status or a company (CNPJ) as their holder: see the README.
   */
  keysPerAccount?: number;
  /** Requests per window per token; over it, 429 with Retry-After. Default: no limit. */
  rateLimit?: RateLimitOptions;
  /** Faults armed from the start (and again after `reset()`). */
  faults?: Fault[];
  /**
   * `expires_in` of the tokens the token endpoint (`POST /oauth/token`) issues, in seconds: a whole
   * number from 1 to 86,400. Default 300. Past it, the token gets a 401 on the API.
   */
  tokenTtlSeconds?: number;
  /** The clock of the rate limit and of issued tokens' expiry, in ms. Default `performance.now`. */
  now?: () => number;
}

export interface Sandbox {
  /** A web-standard fetch handler: pass it as the client's `fetch` option. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Serves the same handler over HTTP on 127.0.0.1 (needs `@hono/node-server`). */
  listen(options?: ListenOptions): Promise<RunningSandbox>;
  /** The seeded API clients, each with its static token, its client credentials and its customer accounts. */
  readonly clients: readonly SandboxClient[];
  /** Arms a fault for the next `times` calls of an operation. */
  inject(fault: Fault): void;
  /**
   * Restores the seeded state: customers' data, rate-limit windows, faults. Tokens the token endpoint
   * issued stay valid until they expire, so a token source shared by several tests keeps working.
   */
  reset(): void;
  /** The current state as plain JSON (CPFs masked, no tokens, no client secrets), for assertions. */
  snapshot(): SandboxSnapshot;
}

export interface ListenOptions {
  port?: number;
  host?: '127.0.0.1' | 'localhost';
  /** Called with one line per request; tokens never appear and CPFs are masked. */
  log?: (line: string) => void;
}

export interface RunningSandbox {
  /** e.g. `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  port: number;
  /** Closes the server and its connections. Safe to call more than once. */
  stop(): Promise<void>;
}

const UPDATE_PATH = '/v2/api/baas-onboarding/account/natural-person';
const LIST_PATH = '/v2/api/pix/keys/list-keys';
const ROUTES: Record<string, { method: string; operation: OperationId }> = {
  [UPDATE_PATH]: { method: 'PUT', operation: 'updateNaturalPerson' },
  [LIST_PATH]: { method: 'GET', operation: 'listPixKeys' },
};
const UPDATED: UpdateResult = DOCUMENTED.updateNaturalPerson.get(200)!.examples.values().next().value as UpdateResult;

const PAGE_CACHE_SIZE = 32;

const violationsOf = (issues: ValidationIssue[]): Violation[] =>
  // The whole body has no JSON pointer of its own in a violation's `property` (at least one character).
  issues.map((issue) => ({ property: issue.path === '' ? 'body' : issue.path, reason: issue.message }));

/** A query parameter of one value sent more than once: which of them is meant is anyone's guess. */
const repeated = (url: URL, operation: OperationId): ValidationIssue[] =>
  SINGLE_VALUED_QUERY[operation]
    .filter((name) => url.searchParams.getAll(name).length > 1)
    .map((name) => ({ path: name, message: `${name} must be sent once: it takes one value` }));

const count = (name: SizeOption, value: number | undefined, fallback: number): number => {
  const n = value ?? fallback;
  const wrong = countProblem(name, n, name);
  if (wrong !== undefined) throw new RangeError(`createSandbox: ${wrong}`);
  return n;
};

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  // Every size is checked before anything is built: an oversized sandbox allocates nothing.
  const clients = count('clients', options.clients, 1);
  const accountsPerClient = count('accountsPerClient', options.accountsPerClient, 2);
  const keysPerAccount = count('keysPerAccount', options.keysPerAccount, 5);
  const tooBig = totalProblem({ clients, accountsPerClient, keysPerAccount }, (name) => name);
  if (tooBig !== undefined) throw new RangeError(`createSandbox: ${tooBig}`);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? SANDBOX_TOKENS.defaultTtlSeconds;
  const badTtl = ttlProblem(tokenTtlSeconds, 'tokenTtlSeconds');
  if (badTtl !== undefined) throw new RangeError(`createSandbox: ${badTtl}`);
  if (options.now !== undefined && typeof options.now !== 'function')
    throw new TypeError('createSandbox: now must be a function returning milliseconds');
  const seed = options.seed ?? 'baas-pix-contract';
  const world: World = buildWorld(seed, clients, accountsPerClient, keysPerAccount);
  const seeded = world.accounts.map((accounts) => accounts.map((account) => JSON.stringify(account.data)));
  const byToken = new Map(world.clients.map((client, index) => [client.token, index]));
  const byAccount = new Map<string, SeededAccount>();
  for (const accounts of world.accounts)
    for (const account of accounts) byAccount.set(`${account.account}/${account.documentNumber}`, account);
  const cursors = new Cursors(`${world.seed}:${clients}:${accountsPerClient}:${keysPerAccount}`);
  const now = options.now ?? (() => performance.now());
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit, now) : undefined;
  const issued = new IssuedTokens(tokenTtlSeconds * 1000, SANDBOX_TOKENS.livePerClient, now);
  const oauth = tokenEndpoint(world.clients, issued, tokenTtlSeconds);
  const faults = new FaultQueue(options.faults ?? []);
  const totalKeys = accountsPerClient * keysPerAccount;
  // Keys never change: derived once here, served from bytes (src/sandbox/page.ts).
  const compiled = world.accounts.map((accounts) => accounts.map((account) => compileAccount(world, account)));

  // Keys never change, so a page's body never does: recent ones are kept encoded (bounded, LRU),
  // since tests walk the same pages again and again. Bytes rather than text: a Response scans a
  // string body three times (USVString check, length, encoding) and copies a Uint8Array once.
  const pageCache = new Map<string, Uint8Array<ArrayBuffer>>();
  function pageBody(clientIndex: number, offset: number, limit: number): Uint8Array<ArrayBuffer> {
    const cacheKey = `${clientIndex}:${offset}:${limit}`;
    let body = pageCache.get(cacheKey);
    // The cache only spares work: every entry holds the page's exact bytes. Its order (a hit moves to
    // the end) and its bound change how often a page is built again, never what it holds.
    // Stryker disable next-line BlockStatement: see above.
    if (body !== undefined) {
      // Stryker disable next-line CallExpression: see above.
      pageCache.delete(cacheKey);
    } else {
      body = page(clientIndex, offset, limit);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: see above.
      if (pageCache.size >= PAGE_CACHE_SIZE) pageCache.delete(pageCache.keys().next().value!);
    }
    // Stryker disable next-line CallExpression: see above.
    pageCache.set(cacheKey, body);
    return body;
  }

  /** A page of the key list as JSON bytes (PixKeyList). */
  function page(clientIndex: number, offset: number, limit: number): Uint8Array<ArrayBuffer> {
    const end = Math.min(offset + limit, totalKeys);
    const next = end < totalKeys ? `"${cursors.encode(clientIndex, end)}"` : 'null';
    return pageBytes(compiled[clientIndex]!, keysPerAccount, offset, end, next);
  }

  async function listPixKeys(
    request: SandboxRequest,
    url: URL,
    clientIndex: number,
    requestId: string,
    inProcess: boolean,
  ): Promise<Response> {
    const query: Record<string, unknown> = {};
    const limitText = url.searchParams.get('limit');
    if (limitText !== null) query.limit = /^-?[0-9]{1,16}$/.test(limitText) ? Number(limitText) : limitText;
    const cursor = url.searchParams.get('cursor');
    if (cursor !== null) query.cursor = cursor;
    const issues = [...repeated(url, 'listPixKeys'), ...validateListPixKeysQuery(query)];
    const userAgent = request.headers.get('user-agent');
    if (!userAgent)
      issues.push({ path: 'User-Agent', message: 'User-Agent is required: the name of the calling application' });
    else if (userAgent.length > 256)
      issues.push({ path: 'User-Agent', message: 'User-Agent must be at most 256 characters' });
    if (issues.length > 0) return invalid(violationsOf(issues), requestId);
    let offset = 0;
    if (cursor !== null) {
      // A cursor that decodes was issued by a sandbox with these very options, for a position short of the end.
      const decoded = cursors.decode(clientIndex, cursor);
      if (decoded === undefined) {
        return problem(
          {
            status: 400,
            slug: 'bad-cursor',
            title: 'Malformed request',
            detail: 'The cursor was not issued to this client by this server; start again without a cursor.',
          },
          requestId,
        );
      }
      offset = decoded;
    }
    // Validated: an integer from 1 to the contract's maximum.
    const limit = (query.limit as number | undefined) ?? LIMIT_DEFAULT;
    const body = pageBody(clientIndex, offset, limit);
    const init = { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': requestId } };
    // Over HTTP, the adapter writes a plain Response's bytes straight to the socket; in process, a
    // BytesResponse spares the caller the stream that Node's Response reads every body through.
    // Stryker disable next-line ConditionalExpression: either Response answers the same (pages.test.ts), only faster where it is used.
    return inProcess ? new BytesResponse(body, init) : new Response(body, init);
  }

  async function updateNaturalPerson(
    request: SandboxRequest,
    url: URL,
    clientIndex: number,
    requestId: string,
  ): Promise<Response> {
    const query: Record<string, unknown> = {};
    for (const name of ['Account', 'DocumentNumber']) {
      const value = url.searchParams.get(name);
      if (value !== null) query[name] = value;
    }
    const body = await readJsonBody(request);
    if (!body.ok) {
      return body.tooLarge
        ? problem(
            { status: 413, slug: 'content-too-large', title: 'Content too large', detail: body.reason },
            requestId,
          )
        : badRequest(body.reason, requestId);
    }
    const issues = [
      ...repeated(url, 'updateNaturalPerson'),
      ...validateUpdateNaturalPersonQuery(query),
      ...validateNaturalPersonUpdate(body.value),
    ];
    if (issues.length > 0) return invalid(violationsOf(issues), requestId);
    const account = byAccount.get(`${query.Account as string}/${query.DocumentNumber as string}`);
    if (!account) {
      return problem(
        {
          status: 404,
          slug: 'not-found',
          title: 'Customer not found',
          detail: 'No customer account matches the given Account and DocumentNumber.',
        },
        requestId,
      );
    }
    if (account.clientIndex !== clientIndex) {
      return problem(
        {
          status: 403,
          slug: 'forbidden',
          title: 'Forbidden',
          detail: 'This token may not act on the requested account.',
        },
        requestId,
      );
    }
    // Top-level fields replace the stored ones; an address is replaced whole.
    // The body was parsed for this request alone: nothing else holds its objects.
    account.data = { ...account.data, ...(body.value as NaturalPersonUpdate) } as CustomerData;
    return json(200, UPDATED, requestId);
  }

  /** A documented response picked with `Prefer`, as Prism would serve it. */
  function preferred(
    operation: OperationId,
    code: number | undefined,
    example: string | undefined,
    requestId: string,
  ): Response | undefined {
    const responses = DOCUMENTED[operation];
    let status = code;
    let body: unknown;
    if (example !== undefined) {
      const found = [...responses.values()].find(
        (response) => (code === undefined || response.status === code) && response.examples.has(example),
      );
      if (!found)
        return badRequest(
          `Prefer asks for example=${example}, which ${operation} does not document${code ? ` for ${code}` : ''}.`,
          requestId,
        );
      status = found.status;
      body = found.examples.get(example);
    } else if (code !== undefined) {
      const found = responses.get(code);
      if (!found) return badRequest(`Prefer asks for code=${code}, which ${operation} does not document.`, requestId);
      // 2xx without an example: the sandbox's own answer.
      if (code < 300) return undefined;
      body = found.examples.values().next().value;
    }
    if (status === undefined) return undefined;
    // Every documented error's example is a problem: it gets this request's id.
    if (status >= 400)
      body = { ...(body as object), instance: `/problems/occurrences/${requestId}`, correlationId: requestId };
    const type = status >= 400 ? 'application/problem+json' : 'application/json';
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': type, 'x-request-id': requestId, ...statusHeaders(status) },
    });
  }

  async function applyFault(fault: Fault, operation: OperationId, requestId: string): Promise<Response | undefined> {
    if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault.drop) throw new DroppedConnection();
    if (fault.status === undefined) return undefined;
    const headers = { 'x-request-id': requestId, ...statusHeaders(fault.status), ...fault.headers };
    if (fault.body !== undefined) {
      const text = typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
      const type =
        typeof fault.body === 'string'
          ? 'text/plain'
          : fault.status >= 400
            ? 'application/problem+json'
            : 'application/json';
      return new Response(text, { status: fault.status, headers: { 'content-type': type, ...headers } });
    }
    const documented = preferred(operation, fault.status, undefined, requestId);
    if (documented && documented.status === fault.status) {
      for (const [name, value] of Object.entries(headers)) documented.headers.set(name, value);
      return documented;
    }
    return new Response(null, { status: fault.status, headers });
  }

  async function handle(request: SandboxRequest, inProcess: boolean): Promise<Response> {
    const requestId = randomUUID();
    // A Request's URL always parses, and lightRequest takes only URLs that do.
    const url = new URL(request.url);
    // The sandbox's own helper, not an operation of the contract: no faults, no rate limit.
    if (url.pathname === TOKEN_PATH) return oauth.handle(request, url, requestId);
    const route = ROUTES[url.pathname];
    if (!route)
      return problem(
        { status: 404, slug: 'not-found', title: 'Not found', detail: 'No operation of the contract has this path.' },
        requestId,
      );
    if (request.method !== route.method) {
      return problem(
        {
          status: 405,
          slug: 'method-not-allowed',
          title: 'Method not allowed',
          detail: `This path answers ${route.method} only.`,
          headers: { allow: route.method },
        },
        requestId,
      );
    }
    const fault = faults.take(route.operation);
    if (fault) {
      const faulted = await applyFault(fault, route.operation, requestId);
      if (faulted) return faulted;
    }
    const token = bearerToken(request.headers.get('authorization'));
    if (token === undefined)
      return unauthorized('A bearer token is required: Authorization: Bearer <token>.', requestId);
    let clientIndex = byToken.get(token);
    if (clientIndex === undefined) {
      const found = issued.lookup(token);
      if (found === 'expired')
        return unauthorized('The bearer token has expired: ask the token endpoint for a new one.', requestId);
      if (found === undefined) return unauthorized('The bearer token is not known to this sandbox.', requestId);
      clientIndex = found.clientIndex;
    }
    // Per client, not per token: its issued tokens share the window of its static token.
    const limited = limiter?.check(world.clients[clientIndex]!.token, requestId);
    if (limited) return limited;
    const prefer = preference(request.headers.get('prefer'));
    const answer = preferred(route.operation, prefer.code, prefer.example, requestId);
    if (answer) return answer;
    return route.operation === 'listPixKeys'
      ? listPixKeys(request, url, clientIndex, requestId, inProcess)
      : updateNaturalPerson(request, url, clientIndex, requestId);
  }

  /** Never throws, except DroppedConnection: a bug becomes a 500 problem (updates apply whole or not at all). */
  async function safeHandle(request: SandboxRequest, inProcess: boolean): Promise<Response> {
    try {
      return await handle(request, inProcess);
    } catch (error) {
      if (error instanceof DroppedConnection) throw error;
      return problem(
        {
          status: 500,
          slug: 'internal',
          title: 'Internal server error',
          detail: 'The sandbox failed to handle the request.',
        },
        randomUUID(),
      );
    }
  }

  const sandbox: Sandbox = {
    clients: world.clients,
    async fetch(input, init) {
      const request =
        input instanceof Request
          ? init === undefined
            ? input
            : new Request(input, init)
          : (lightRequest(input, init) ?? new Request(input, init));
      try {
        // Stryker disable next-line BooleanLiteral: only picks the faster Response in process (see listPixKeys).
        return await safeHandle(request, true);
      } catch {
        // What Node's fetch rejects with when the server closes the connection without answering.
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
        });
      }
    },
    async listen(listenOptions = {}) {
      // Stryker disable next-line BooleanLiteral: only picks the faster Response in process (see listPixKeys).
      return listenOverHttp((request) => safeHandle(request, false), listenOptions);
    },
    inject(fault) {
      faults.add(fault);
    },
    reset() {
      world.accounts.forEach((accounts, c) => {
        accounts.forEach((account, a) => {
          account.data = JSON.parse(seeded[c]![a]!) as CustomerData;
        });
      });
      limiter?.reset();
      faults.reset();
    },
    snapshot() {
      return snapshotOf(world, (account, index) => keyAt(world, account, index));
    },
  };
  return sandbox;
}
