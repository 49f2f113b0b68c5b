// The `tls` option as the client and clientCredentials take it: its type and the runtime checked now
// (so a value that is not an options object, or a runtime without node:tls, fails at creation, naming
// the option), its shape (options.ts) and its material (agent.ts) on the first request, when the TLS
// fetch is built on undici (an optional peer, loaded then). Creating a client is synchronous and undici
// loads asynchronously, hence the wait for the first request. A malformed shape then fails that
// request, and every one after it, with a NetworkError naming the field and the rule (`unusable` in fetch.ts).
import type { TlsFetch } from './agent.js';
import { requireTlsSupport } from './capability.js';
import { usableTlsFetch } from './fetch.js';
import type { TlsOptions } from './options.js';

export function lazyTlsFetch(tls: TlsOptions, where = 'tls'): TlsFetch {
  if (!tls || typeof tls !== 'object' || Array.isArray(tls)) {
    throw new TypeError(`${where} must be an object: { cert, key, passphrase? }, { pfx, passphrase? } or { ca }`);
  }
  // A runtime without node:tls (workerd) fails here, at creation, rather than on the first request.
  requireTlsSupport(where);
  // A copy, so the options cannot change between creation and the first request.
  const given = { ...tls };
  let pending: Promise<TlsFetch> | undefined;
  const get = () => {
    pending ??= usableTlsFetch(given, where).catch((error: unknown) => {
      // A failed build is not kept: the next call reports it again.
      pending = undefined;
      throw error;
    });
    return pending;
  };
  const send = async (url: string, init: RequestInit): Promise<Response> => (await get())(url, init);
  return Object.assign(send, {
    async close() {
      const built = pending;
      pending = undefined;
      if (built) await built.then((f) => f.close()).catch(() => undefined);
    },
  });
}
