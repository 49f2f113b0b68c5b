// The fetch a request goes through when the caller gives none: the runtime's own, looked up at each
// call rather than captured when the module loads, so a fetch that a test, a polyfill or an APM agent
// puts on globalThis later is the one used. The client, clientCredentials and verify all default to it.
import type { FetchLike } from '../fetch.js';

export const runtimeFetch: FetchLike = (url, init) => globalThis.fetch(url, init);
