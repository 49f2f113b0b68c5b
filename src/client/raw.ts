import type { Client, ClientOptions, Middleware } from 'openapi-fetch';
import type { paths } from '../generated/schema.js';
import { Call, type CallRequest, type ClientState } from './call.js';
import { lazyClient } from './lazy-client.js';
import type { RetrySettings } from './retry.js';
import type { TokenSource } from './token.js';

export type { TokenSource };

export interface RawClientOptions {
  baseUrl: string;
  /** Bearer token, or a function called before each request so tokens can be refreshed. */
  token?: TokenSource;
  /** Sent as `User-Agent` on every request: the name of the calling application. */
  userAgent?: string;
  fetch?: (request: Request) => Promise<Response>;
  /** Called with each token value the auth middleware sends. */
  onToken?: (value: string) => void;
  /** Extra middleware, run after auth and User-Agent. */
  middleware?: Middleware[];
}

export type RawClient = Client<paths>;

/**
 * Sets `Authorization: Bearer …` and `User-Agent`; one middleware rather than two, as each step costs
 * every request. `onToken` learns each token value so errors can redact it.
 */
export function headersMiddleware(token: TokenSource | undefined, userAgent: string | undefined, onToken?: (value: string) => void): Middleware {
  return {
    async onRequest({ request }) {
      if (token !== undefined) {
        const value = typeof token === 'function' ? await token() : token;
        onToken?.(value);
        request.headers.set('Authorization', `Bearer ${value}`);
      }
      if (userAgent !== undefined) request.headers.set('User-Agent', userAgent);
      return request;
    },
  };
}

/** The Accept header of every call: errors come as application/problem+json. */
export const ACCEPT = 'application/json, application/problem+json';

/**
 * A typed openapi-fetch client over the generated `paths`, with auth and User-Agent as middleware.
 * openapi-fetch itself loads on the first request (see lazy-client.ts).
 */
export function createRawClient(options: RawClientOptions): RawClient {
  const middleware = options.token !== undefined || options.userAgent !== undefined ? [headersMiddleware(options.token, options.userAgent, options.onToken)] : [];
  // openapi-fetch reads the global fetch and Request when a client is created, so take them now:
  // a fetch patched in later (a test's mock) is seen exactly as with an eagerly created client.
  const settings: ClientOptions = {
    Request: globalThis.Request,
    fetch: options.fetch ?? globalThis.fetch,
    baseUrl: options.baseUrl,
    // Errors come as application/problem+json; a bare application/json would make a strict server
    // (and Prism) refuse to send them.
    headers: { Accept: ACCEPT },
  };
  return lazyClient(() => import('./raw-load.js').then((m) => m.openapiClient(settings)), [...middleware, ...(options.middleware ?? [])]);
}

/** `createBaasClient`'s `raw` (see raw-load.ts): requests built by openapi-fetch, sent by a Call. */
export function createCallingRawClient(
  baseUrl: string,
  state: ClientState,
  settings: { timeoutMs: number; retry: RetrySettings | false; userAgent: string; maxResponseBytes: number },
): RawClient {
  const options: ClientOptions = { Request: globalThis.Request, baseUrl, headers: { Accept: ACCEPT, 'User-Agent': settings.userAgent } };
  const start = (request: CallRequest, signal: AbortSignal) => new Call(state, request, settings.timeoutMs, settings.retry, signal, settings.maxResponseBytes);
  return lazyClient(() => import('./raw-load.js').then((m) => m.callingClient(options, start)));
}
