// MSW request handlers that route to a sandbox; msw (2.x) is an optional peer, loaded only here.
// The declarations never name msw: a consumer without msw, compiling with skipLibCheck off, would
// otherwise fail on `import('msw')` in our .d.ts (TS2307). The handler type comes from the msw the
// consumer passes (`http`), or is left open when msw is loaded here.
import { operations } from '../generated/operations.js';
import { SANDBOX_TOKENS } from './limits.js';
import type { Sandbox } from './sandbox.js';
import { checkOptions, isFunction, must, optionError, type OptionRules } from '../option-rules.js';

/** The folder every operation's path is under (`/v2/api/`), from the generated operation table. */
const API_ROOT = Object.values(operations)
  .map((operation): string => operation.path)
  .reduce((root, path) => {
    // The folder of `root` one level up, until `path` is under it.
    while (!path.startsWith(root)) root = root.slice(0, root.lastIndexOf('/', root.length - 2) + 1);
    return root;
  });

/** The part of msw's `http` namespace used here (msw 2.x), described by its shape. */
export interface MswHttp<Handler> {
  /** A handler for every method at `path` (msw's `http.all`). */
  all(path: string, resolver: (info: { request: Request }) => Promise<Response>): Handler;
}

/** The options of `createMswHandlers`: the base URL the handlers answer for, and msw's `http`. */
export interface MswHandlerOptions<Handler = unknown> {
  /** The base URL your client calls, e.g. `https://sandbox.baas.example`. */
  baseUrl: string;
  /**
   * msw's `http` (`import { http } from 'msw'`): the handlers are then typed as msw's own
   * (HttpHandler). Without it, msw is imported here and the handlers' type is left open.
   */
  http?: MswHttp<Handler>;
}

/**
 * Handlers for `setupServer(...)` or `server.use(...)` that answer every call under the contract's
 * paths (`/v2/api/*`: a path the contract does not have gets the sandbox's own 404), and the token endpoint (`<baseUrl>/oauth/token`, for `clientCredentials`), from the sandbox.
 */
// `any` only when msw's own `http` is not passed: the type of msw's handler cannot be named here.
// biome-ignore lint/suspicious/noExplicitAny: msw is an optional peer, so its handler type cannot be named here
export async function createMswHandlers<Handler = any>(
  sandbox: Sandbox,
  options: MswHandlerOptions<Handler>,
): Promise<Handler[]> {
  checkArguments(sandbox, options);
  let http = options.http;
  if (!http) {
    try {
      http = (await import('msw')).http as unknown as MswHttp<Handler>;
    } catch (error) {
      throw new Error('createMswHandlers needs msw 2: install it with `npm install --save-dev msw@^2`.', {
        cause: error,
      });
    }
  }
  const base = options.baseUrl.replace(/\/$/, '');
  const route = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      // Sends outside the transport: nothing goes on the network. The sandbox's handler answers in process the
      // request MSW intercepted; the client that sent it went through its own transport already.
      return await sandbox.fetch(request);
    } catch {
      // A dropped connection (injected fault): MSW turns an error Response into a network error.
      return Response.error();
    }
  };
  return [http.all(`${base}${API_ROOT}*`, route), http.all(`${base}${SANDBOX_TOKENS.path}`, route)];
}

// Each option's rule, once: tsc fails here when MswHandlerOptions gains or loses one.
const RULES: OptionRules<MswHandlerOptions> = {
  baseUrl: {
    check: (url) =>
      /^https?:$/.test(protocolOf(url))
        ? undefined
        : 'must be the absolute http(s) URL your client calls, e.g. "https://sandbox.baas.example"',
    error: TypeError,
    required: true,
  },
  http: must(
    (http) => isFunction((http as Partial<MswHttp<unknown>> | null)?.all),
    "must be msw's `http` (import { http } from 'msw'), or left out",
  ),
};

/** The arguments a JavaScript caller can get wrong, said before msw is loaded (not "cannot read 'replace'"). */
function checkArguments(sandbox: unknown, options: unknown): void {
  if (typeof (sandbox as Partial<Sandbox> | null)?.fetch !== 'function')
    throw new TypeError('createMswHandlers: the first argument must be a sandbox, what createSandbox() returns');
  if (typeof options !== 'object' || options === null)
    throw optionError({
      where: 'createMswHandlers',
      option: 'options',
      rule: 'are required: { baseUrl }, the base URL your client calls, e.g. { baseUrl: "https://sandbox.baas.example" }',
    });
  checkOptions('createMswHandlers', options as MswHandlerOptions, RULES);
}

function protocolOf(url: unknown): string {
  try {
    return typeof url === 'string' ? new URL(url).protocol : '';
  } catch {
    return '';
  }
}
