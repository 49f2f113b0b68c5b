import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../generated/schema.js';

export type TokenSource = string | (() => string | Promise<string>);

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

/** A typed openapi-fetch client over the generated `paths`, with auth and User-Agent as middleware. */
export function createRawClient(options: RawClientOptions): RawClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    // Errors come as application/problem+json; a bare application/json would make a strict server
    // (and Prism) refuse to send them.
    headers: { Accept: 'application/json, application/problem+json' },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.token !== undefined || options.userAgent !== undefined) {
    client.use(headersMiddleware(options.token, options.userAgent, options.onToken));
  }
  for (const middleware of options.middleware ?? []) client.use(middleware);
  return client;
}
