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
  return checked(
    createClient<paths>({
      baseUrl,
      headers: { Accept: ACCEPT, 'User-Agent': settings.userAgent },
      fetch: async (request: Request) => {
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => {
          if (name !== 'authorization') headers[name] = value;
        });
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
      },
    }),
  );
}
