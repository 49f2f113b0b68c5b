// The fetch every part of the package sends with: the client, clientCredentials and the TLS fetch.
// A leaf: it imports nothing, so logging, auth and TLS can share it without reaching into the client.

/**
 * What the client hands an injected `fetch`: a URL string and a plain init (method, headers as a
 * plain object, body as a string or ArrayBuffer, signal, `redirect: 'manual'`), never a Request
 * object, so undici's own `fetch` (whose Request class is not the global one) works as well as
 * Node's. It must resolve a WHATWG Response and reject when the signal aborts.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
