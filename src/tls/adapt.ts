// The client calls every fetch as `fetch(url, init)` with a plain init (see FetchLike), which the
// `undici` package's own fetch takes as well as Node's global one. What differs is the answer:
// undici's Response is not the global class (a different copy of undici), and openapi-fetch refuses
// a Response that is not. This adapter joins extra init fields (a dispatcher) to every call and hands
// back a global Response.
import type { FetchLike } from '../fetch.js';

/** Any fetch callable as `fetch(url, init)`: undici's, node-fetch's, a proxy agent's. */
export type UrlInitFetch = (url: string, init: RequestInit & Record<string, unknown>) => Promise<ResponseLike>;

/** What the adapter reads from the answer; undici's Response and the global one both have it. */
export interface ResponseLike {
  status: number;
  statusText: string;
  headers: { forEach(callback: (value: string, name: string) => void): void };
  body: ReadableStream<Uint8Array> | null;
}

const pairs = (headers: ResponseLike['headers']): [string, string][] => {
  const out: [string, string][] = [];
  headers.forEach((value, name) => {
    out.push([name, value]);
  });
  return out;
};

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Wraps a (url, init) fetch as the client's FetchLike; `extra` joins every init (e.g. a dispatcher). */
export function fromUrlInitFetch(fetch: UrlInitFetch, extra: Record<string, unknown> = {}): FetchLike {
  return async (url, init) => {
    // Sends outside the transport: this is the fetch the transport's attempt is given and calls; its timer,
    // redirect rule and byte limit wrap this call, which only adds the dispatcher and mends the Response.
    const answer = await fetch(url, { ...init, ...extra });
    if (answer instanceof Response) return answer;
    return new Response(NULL_BODY.has(answer.status) ? null : answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: pairs(answer.headers),
    });
  };
}
