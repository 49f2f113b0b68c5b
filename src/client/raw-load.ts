// What `raw` loads on its first request: openapi-fetch, and the fetch that hands each request it
// builds to the client's call owner. It imports nothing the client entry has (the Call comes in as
// `start`), so a bundler gives it and openapi-fetch a chunk of their own and splits nothing off.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../generated/schema.js';
import type { Call, CallRequest } from './call.js';

// Statuses whose Response must have a null body.
const NULL_BODY = new Set([101, 204, 205, 304]);

/** createRawClient's client: openapi-fetch with the options taken at creation. */
export const openapiClient = (options: ClientOptions): Client<paths> => createClient<paths>(options);

/**
 * `createBaasClient`'s `raw`: openapi-fetch for building the typed request, and the same call owner
 * as the typed operations for sending it (token, timeout per attempt, retries, redirects, the
 * caller's signal as `request.signal`). The body is read inside the call, within `maxResponseBytes`, so
 * the attempt's timer covers it and is cleared when the call ends; openapi-fetch then parses the
 * buffered copy.
 */
export function callingClient(options: ClientOptions, start: (request: CallRequest, signal: AbortSignal) => Call): Client<paths> {
  return createClient<paths>({
    ...options,
    fetch: async (request: Request) => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        if (name !== 'authorization') headers[name] = value;
      });
      const body = request.body === null ? undefined : await request.arrayBuffer();
      return start({ operation: 'raw', method: request.method, url: request.url, headers, body }, request.signal).run(async (response, call) => {
        // Within maxResponseBytes: openapi-fetch would read any amount.
        const buffered = NULL_BODY.has(response.status) ? null : ((await call.readBytes(response)) as Uint8Array<ArrayBuffer>);
        return new Response(buffered, { status: response.status, statusText: response.statusText, headers: response.headers });
      });
    },
  });
}
