// openapi-fetch is about 2.3 kB of gzip that only `raw` users need, so `client.raw` and
// `createRawClient` hand out this stand-in: the same `Client<paths>` interface, whose request methods
// load openapi-fetch (raw-load.ts) on first use and create the real client then, with the middleware
// `use`d and `eject`ed so far, in order. After that every method goes straight to the real client.
import type { Client, Middleware } from 'openapi-fetch';
import type { paths } from '../generated/schema.js';

type Real = Client<paths>;
type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE' | 'request';
const METHODS: Method[] = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE', 'request'];

/** A `Client<paths>` that creates the real one with `create` on its first request. */
export function lazyClient(create: () => Promise<Real>, middleware: Middleware[] = []): Real {
  const queue = [...middleware];
  let real: Real | undefined;
  let loading: Promise<Real> | undefined;

  const load = (): Promise<Real> =>
    (loading ??= create().then(
      (created) => {
        real = created;
        real.use(...queue);
        return real;
      },
      (error: unknown) => {
        // A failed load (a chunk that could not be fetched) is tried again on the next request.
        loading = undefined;
        throw error;
      },
    ));

  const client = {
    use(...added: Middleware[]) {
      if (real) return real.use(...added);
      for (const m of added) {
        if (!m) continue;
        // openapi-fetch's own check and message, so a bad middleware fails at `use` as it would there.
        if (typeof m !== 'object' || !('onRequest' in m || 'onResponse' in m || 'onError' in m)) {
          throw new Error('Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`');
        }
        queue.push(m);
      }
    },
    eject(...removed: Middleware[]) {
      if (real) return real.eject(...removed);
      for (const m of removed) {
        const i = queue.indexOf(m);
        if (i !== -1) queue.splice(i, 1);
      }
    },
  } as Record<string, unknown>;
  for (const method of METHODS) {
    client[method] = (...args: never[]) => load().then((c) => (c[method] as (...args: never[]) => unknown)(...args));
  }
  return client as unknown as Real;
}
