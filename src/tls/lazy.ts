// The `tls` option as the client and clientCredentials take it: shape checked now (so
// createBaasClient stays synchronous and fails at creation on a malformed option), the TLS fetch
// built on the first request, by dynamic import, so undici loads only for users who set `tls`.
import { checkTlsOptions, type TlsOptions } from './options.js';
import type { TlsFetch } from './fetch.js';

export function lazyTlsFetch(tls: TlsOptions, where = 'tls'): TlsFetch {
  checkTlsOptions(tls, where);
  let pending: Promise<TlsFetch> | undefined;
  const get = () => {
    pending ??= import('./fetch.js').then((m) => m.createTlsFetch(tls, { where }));
    // A failed build (bad passphrase, no undici) is not kept: the next call reports it again.
    pending.catch(() => (pending = undefined));
    return pending;
  };
  const send = async (request: Request): Promise<Response> => (await get())(request);
  return Object.assign(send, {
    async close() {
      const built = pending;
      pending = undefined;
      if (built) await built.then((f) => f.close()).catch(() => undefined);
    },
  });
}
