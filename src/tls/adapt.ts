// The client calls `fetch(request)` with a WHATWG Request. The `undici` package's own fetch cannot
// take Node's global Request (a different copy of undici: it stringifies it and fails with
// ERR_INVALID_URL), and openapi-fetch refuses a Response that is not the global class. This adapter
// calls any fetch as (url, init) and hands back a global Response.

export interface UrlInit {
  method: string;
  headers: [string, string][];
  body?: ArrayBuffer;
  signal: AbortSignal;
  redirect: RequestRedirect;
  [extra: string]: unknown;
}

/** Any fetch callable as `fetch(url, init)`: undici's, node-fetch's, a proxy agent's. */
export type UrlInitFetch = (url: string, init: UrlInit) => Promise<ResponseLike>;

/** What the adapter reads from the answer; undici's Response and the global one both have it. */
export interface ResponseLike {
  status: number;
  statusText: string;
  headers: { forEach(callback: (value: string, name: string) => void): void };
  body: ReadableStream<Uint8Array> | null;
}

const pairs = (headers: ResponseLike['headers']): [string, string][] => {
  const out: [string, string][] = [];
  headers.forEach((value, name) => out.push([name, value]));
  return out;
};

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Wraps a (url, init) fetch as the (request) fetch the client takes; `extra` joins every init (e.g. a dispatcher). */
export function fromUrlInitFetch(fetch: UrlInitFetch, extra: Record<string, unknown> = {}): (request: Request) => Promise<Response> {
  return async (request) => {
    // Bodies here are small JSON; reading one whole avoids streaming a body across two copies of undici.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const init: UrlInit = {
      ...extra,
      method: request.method,
      headers: pairs(request.headers),
      signal: request.signal,
      redirect: request.redirect,
      ...(body === undefined ? {} : { body }),
    };
    const answer = await fetch(request.url, init);
    if (answer instanceof Response) return answer;
    return new Response(NULL_BODY.has(answer.status) ? null : answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: pairs(answer.headers),
    });
  };
}
