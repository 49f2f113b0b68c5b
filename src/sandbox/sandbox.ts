// The stateful implementation of the contract: one fetch handler, used in process, over HTTP, or by
// MSW. This file puts the parts together; each does one job (see handler.ts for a request's path).
import { Authenticator } from './authenticate.js';
import { Customers } from './customers.js';
import { buildWorld, keyAt, type SandboxClient } from './data.js';
import { type Fault, FaultQueue } from './faults.js';
import { createHandler } from './handler.js';
import { inProcessFetch } from './in-process.js';
import { IssuedTokens } from './issued-tokens.js';
import { KeyPages } from './key-pages.js';
import { SANDBOX_TOKENS } from './limits.js';
import { listen as listenOverHttp } from './listen.js';
import { tokenEndpoint } from './oauth.js';
import { settle } from './options.js';
import { hashSeed } from './random.js';
import { RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { type SandboxSnapshot, snapshotOf } from './snapshot.js';

/** The options of `createSandbox`: the seed, the sizes of its data, its rate limit and Faker. */
export interface SandboxOptions {
  /** Same seed, same data, byte for byte (for a given version of this package and of Faker). Default 'baas-pix-contract'. */
  seed?: string | number;
  /**
   * How many API clients (tokens). Default 1; 1 to 1,000.
   *
   * The sizes are bounded so that a sandbox's memory is: at most 100,000 customer accounts in all
   * (clients × accountsPerClient) and 250,000 keys in all (clients × accountsPerClient ×
   * keysPerAccount); the largest allowed sandbox, 100,000 accounts with 2 keys each, measured 330 MB of
   * RSS for the whole Node 20 process (see `SANDBOX_LIMITS`).
   * Anything else throws a RangeError naming the option and its limit, before anything is built.
   */
  clients?: number;
  /** Customer accounts per client. Default 2; 1 to 100,000 (and 100,000 accounts in all, see `clients`). */
  accountsPerClient?: number;
  /**
   * PIX keys per account. Default 5 (one of each type, active, held by the account's customer);
   * 0 to 100,000 (and 250,000 keys in all, see `clients`). From the sixth key of an account on, a
   * few keys have another status or a company (CNPJ) as their holder: see the README.
   */
  keysPerAccount?: number;
  /**
   * Requests per window per client; past it, 429 with `Retry-After`. A token bucket: a client may send
   * `requests` at once, then `requests` per `windowMs` for good. Every 2xx and 4xx answer to a known
   * client then carries `RateLimit` and `RateLimit-Policy` (IETF draft fields). Default: no limit.
   */
  rateLimit?: RateLimitOptions;
  /** Faults armed from the start (and again after `reset()`): for the next N calls, or a share of them. */
  faults?: Fault[];
  /**
   * `expires_in` of the tokens the token endpoint (`POST /oauth/token`) issues, in seconds: a whole
   * number from 1 to 86,400. Default 300. Past it, the token gets a 401 on the API.
   */
  tokenTtlSeconds?: number;
  /**
   * Faker, for a runtime where the package cannot require it (a Cloudflare Worker's bundle): pass
   * `faker` from `@faker-js/faker/locale/pt_BR`. The sandbox seeds an instance of its own of the same
   * class and locale, so the data is the same. Default: required from node_modules when created.
   */
  faker?: { readonly rawDefinitions: object };
}

/** A sandbox: the service's behaviour in process, as a fetch handler or served on 127.0.0.1, with seeded data and faults. */
export interface Sandbox {
  /** A web-standard fetch handler: pass it as the client's `fetch` option. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Serves the same handler over HTTP on 127.0.0.1 (needs `@hono/node-server`). */
  listen(options?: ListenOptions): Promise<RunningSandbox>;
  /** The seeded API clients, each with its static token, its client credentials and its customer accounts. */
  readonly clients: readonly SandboxClient[];
  /** Arms a fault: for the next `times` calls of an operation, or for a `share` of its calls. */
  inject(fault: Fault): void;
  /**
   * Restores the seeded state: customers' data, rate-limit buckets, faults (and their draws). Tokens
   * the token endpoint issued stay valid until they expire, so a token source shared by several tests
   * keeps working.
   */
  reset(): void;
  /** The current state as plain JSON (CPFs masked, no tokens, no client secrets), for assertions. */
  snapshot(): SandboxSnapshot;
}

/** The options of `sandbox.listen()`: where, what to log, and the bounds of a connection. */
export interface ListenOptions {
  /** Port to listen on. Default: a free port the system chooses. */
  port?: number;
  /** Interface to listen on: this machine only. Default `127.0.0.1`. */
  host?: '127.0.0.1' | 'localhost';
  /** Called with one line per request; tokens never appear and CPFs are masked. */
  log?: (line: string) => void;
  /**
   * A connection that has not sent a whole request head within this long is closed, idle ones
   * included; the whole request (body too) must arrive within three times it. Default 10 000 ms.
   */
  headersTimeoutMs?: number;
  /** Connections open at once; one more is closed as it arrives. Default 256 (a 1,024-descriptor limit leaves room). */
  maxConnections?: number;
}

/** A sandbox served over HTTP by `listen()`. */
export interface RunningSandbox {
  /** e.g. `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Closes the server and its connections. Safe to call more than once. */
  stop(): Promise<void>;
}

/** A sandbox of the service, seeded from `options.seed`; every option is checked before anything is built. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  // Every option is checked before anything is built: an oversized or ill-formed sandbox allocates nothing.
  const settings = settle(options);
  const { clients, accountsPerClient, keysPerAccount, tokenTtlSeconds } = settings;
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const faults = new FaultQueue(options.faults ?? [], hashSeed(settings.seed));
  const world = buildWorld(settings.seed, clients, accountsPerClient, keysPerAccount, options.faker);
  const issued = new IssuedTokens(tokenTtlSeconds * 1000, SANDBOX_TOKENS.livePerClient);
  const customers = new Customers(world);
  const handle = createHandler({
    tokenEndpoint: tokenEndpoint(world.clients, issued, tokenTtlSeconds),
    authenticator: new Authenticator(world, issued),
    faults,
    limiter,
    pages: new KeyPages(world, keysPerAccount, `${world.seed}:${clients}:${accountsPerClient}:${keysPerAccount}`),
    customers,
  });
  return {
    clients: world.clients,
    fetch: inProcessFetch(handle),
    async listen(listenOptions = {}) {
      // Stryker disable next-line BooleanLiteral: only picks the faster Response in process (see list-keys.ts).
      return listenOverHttp((request) => handle(request, false), listenOptions);
    },
    inject(fault) {
      faults.add(fault);
    },
    reset() {
      customers.reset();
      limiter?.reset();
      faults.reset();
    },
    snapshot() {
      return snapshotOf(world, (account, index) => keyAt(world, account, index));
    },
  };
}
