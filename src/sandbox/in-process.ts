// The sandbox's fetch in process: the caller's input as a request (without building a Request for a
// plain GET, see request.ts), answered by the handler; a dropped connection rejects as Node's fetch does.
import type { Handler } from './handler.js';
import { lightRequest } from './request.js';

export function inProcessFetch(
  handle: Handler,
): (input: Request | string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request =
      input instanceof Request
        ? init === undefined
          ? input
          : new Request(input, init)
        : (lightRequest(input, init) ?? new Request(input, init));
    try {
      // A Request comes from a server's side (a Worker's fetch handler, msw): its runtime sends the
      // Response's own body, so it gets a plain one. A URL comes from a client's injected fetch.
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: only picks the faster Response in process (see list-keys.ts).
      return await handle(request, !(input instanceof Request));
    } catch {
      // What Node's fetch rejects with when the server closes the connection without answering.
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      });
    }
  };
}
