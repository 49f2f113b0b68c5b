// The `tls` option as the client and clientCredentials take it: its shape (options.ts: a misspelt or
// unknown member, a key without its certificate) and the runtime checked now, so a mistake in the
// configuration fails at creation with a BaasOptionError naming the field, before anything is sent; its
// material (agent.ts: a wrong passphrase, a key of another certificate) on the first request, when the
// TLS fetch is built on undici (an optional peer, loaded then). Creating a client is synchronous and
// undici loads asynchronously, hence the wait for the first request. Unusable material then fails that
// request, and every one after it, with a BaasNetworkError naming the field and the rule (`unusable` in fetch.ts).
import type { TlsFetch } from './agent.js';
import { requireTlsSupport } from './capability.js';
import { usableTlsFetch } from './fetch.js';
import { checkTlsOptions, type TlsOptions } from './options.js';

export function lazyTlsFetch(tls: TlsOptions, where = 'tls'): TlsFetch {
  // The shape, then the runtime: a misspelt member is the user's to fix wherever the code runs.
  checkTlsOptions(tls, where);
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
