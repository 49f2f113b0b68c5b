// `createBaasClient`'s `raw`: openapi-fetch over the generated `paths` builds the request, and the same
// call owner as the typed operations sends it, through the transport. There is no other raw client: an
// openapi-fetch client of its own would be an HTTP path outside the transport (no timeout, retry loop,
// redirect rule, byte limit or masking).
import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchOptions,
  type FetchResponse,
  type ParseAs,
} from 'openapi-fetch';
import type { paths } from '../generated/schema.js';
import { refusedHeader } from '../transport/attempt.js';
import { Call, type ClientState } from './call.js';
import type { RetrySettings } from './retry.js';
import type { TokenSource } from './token.js';

export type { TokenSource };

/** A method of the raw client, in lower case (`RawMethod<'get'>` is `raw.GET`): openapi-fetch's eight. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
/** The generated operation at path `P` and method `M` (`operations['listPixKeys']` for the list path and `get`). */
export type RawOperation<P, M extends HttpMethod> = P extends keyof paths
  ? Extract<paths[P][M & keyof paths[P]], Record<string | number, unknown>>
  : never;
/**
 * The `init` argument of a raw method for operation `O`: openapi-fetch's options (`params`, `body`,
 * `headers`, …) and `parseAs`; optional when the operation requires nothing.
 */
export type RawInitArgs<O, A extends ParseAs> =
  // biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks whether every member of T is optional (openapi-fetch's idiom)
  {} extends FetchOptions<O> ? [init?: FetchOptions<O> & { parseAs?: A }] : [init: FetchOptions<O> & { parseAs?: A }];

/**
 * One method of the raw client. openapi-fetch infers its `init` argument as a type parameter and
 * only then checks it against the operation, so an object literal is never checked for excess members:
 * `body: { phoneNumbr: '…' }` compiled (openapi-ts/openapi-typescript#1769). Here `init` is typed by the
 * operation itself, so a misspelled member of the body, `params` or the options is an error; only
 * `parseAs` is inferred, for the type of `data`.
 */
export type RawMethod<M extends HttpMethod> = <
  P extends ClientPathsWithMethod<Client<paths>, M>,
  A extends ParseAs = 'json',
>(
  url: P,
  ...init: RawInitArgs<RawOperation<P, M>, A>
) => Promise<FetchResponse<RawOperation<P, M>, { parseAs: A }, `${string}/${string}`>>;

/** openapi-fetch's client over the generated `paths`, its methods checking their arguments as `RawMethod` says. */
export type RawClient = Omit<Client<paths>, Uppercase<HttpMethod>> & {
  [M in HttpMethod as Uppercase<M>]: RawMethod<M>;
};

/** The Accept header of every call: errors come as application/problem+json. */
export const ACCEPT = 'application/json, application/problem+json';

// The same object: only the declared parameters of its methods are narrowed (see RawMethod), which
// TypeScript cannot relate to openapi-fetch's inferred ones by itself.
const checked = (client: Client<paths>): RawClient => client as unknown as RawClient;

const METHODS: readonly Uppercase<HttpMethod>[] = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];

type Held = Readonly<Record<string, string>>;
type Init = { headers?: unknown; params?: { header?: unknown } } & Record<string, unknown>;

/**
 * `init` without the header of its own that fetch refuses (in `headers` or `params.header`, found by the
 * transport's rule, refusedHeader), and that header held apart; undefined when it holds none.
 */
function withoutRefused(init: Init | undefined): { init: Init; held: Held } | undefined {
  for (const part of ['headers', 'header'] as const) {
    const headers = (part === 'headers' ? init?.headers : init?.params?.header) as Record<string, unknown> | undefined;
    if (!headers || typeof headers !== 'object' || headers instanceof Headers || Array.isArray(headers)) continue;
    const refused = refusedHeader(
      Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    if (refused === undefined) continue;
    const { [refused.name]: value, ...rest } = headers;
    return {
      init: part === 'headers' ? { ...init, headers: rest } : { ...init, params: { ...init!.params, header: rest } },
      held: { [refused.name]: value as string },
    };
  }
  return undefined;
}

// Statuses whose Response must have a null body.
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * `createBaasClient`'s `raw`: openapi-fetch for building the typed request, and the same call owner
 * as the typed operations for sending it (token, timeout per attempt, retries, redirects, the
 * caller's signal as `request.signal`). The body is read inside the call, within `maxResponseBytes`, so
 * the attempt's timer covers it and is cleared when the call ends; openapi-fetch then parses the
 * buffered copy.
 */
export function createCallingRawClient(
  baseUrl: string,
  state: ClientState,
  settings: { timeoutMs: number; retry: RetrySettings | false; userAgent: string; maxResponseBytes: number },
): RawClient {
  // `held`: a header of the caller's that openapi-fetch could not put in its Request (it throws fetch's bare
  // TypeError, "Cannot convert argument to a ByteString", while merging headers), given to the call as it is,
  // so the transport refuses it as it refuses a typed operation's (HeaderRefused: a BaasValidationError naming
  // the header, never its value, nothing sent). One rule, the transport's.
  const send =
    (held: Held) =>
    async (request: Request): Promise<Response> => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        if (name !== 'authorization') headers[name] = value;
      });
      Object.assign(headers, held);
      const body = request.body === null ? undefined : await request.arrayBuffer();
      const call = new Call({
        client: state,
        request: { operation: 'raw', method: request.method, url: request.url, headers, body },
        timeoutMs: settings.timeoutMs,
        retry: settings.retry,
        signal: request.signal,
        maxResponseBytes: settings.maxResponseBytes,
      });
      return call.run(async (response, running) => {
        // Within maxResponseBytes: openapi-fetch would read any amount.
        const buffered = NULL_BODY.has(response.status)
          ? null
          : ((await running.readBytes(response)) as Uint8Array<ArrayBuffer>);
        return new Response(buffered, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      });
    };
  const client = createClient<paths>({
    baseUrl,
    headers: { Accept: ACCEPT, 'User-Agent': settings.userAgent },
    fetch: send({}),
  });
  // Asked only after openapi-fetch threw a TypeError, as the transport asks only after fetch's (refusedHeader).
  const guarded = (build: (init: Init | undefined) => Promise<unknown>, init: Init | undefined) =>
    build(init).catch((error: unknown) => {
      const refused = error instanceof TypeError ? withoutRefused(init) : undefined;
      if (refused === undefined) throw error;
      return build({ ...refused.init, fetch: send(refused.held) });
    });
  type Build = (...args: unknown[]) => Promise<unknown>;
  const methods: Record<string, Build> = {
    request: (method, url, init) => guarded((i) => (client.request as Build)(method, url, i), init as Init | undefined),
  };
  for (const method of METHODS)
    methods[method] = (url, init) => guarded((i) => (client[method] as Build)(url, i), init as Init | undefined);
  return checked({ ...client, ...methods } as Client<paths>);
}
