// The `tls` option as the client and clientCredentials take it: shape checked now (so
// createBaasClient stays synchronous and fails at creation on a malformed option), the TLS fetch
// built on the first request, by dynamic import, so undici loads only for users who set `tls`.
import { checkTlsOptions, type TlsOptions } from './options.js';
import type { TlsFetch } from './agent.js';

/**
 * A TLS option that could not be used (a wrong passphrase, a key of another certificate, undici
 * missing). Its message names the field, never a value; `code` and `reason` let the client's
 * NetworkError say it.
 */
const unusable = (error: unknown): Error => {
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new TypeError(message, { cause: error }), { code: 'ERR_TLS_OPTION', reason: message });
};

export function lazyTlsFetch(tls: TlsOptions, where = 'tls'): TlsFetch {
  const connect = checkTlsOptions(tls, where);
  let pending: Promise<TlsFetch> | undefined;
  const get = () => {
    pending ??= import('./agent.js').then((m) => m.tlsFetchFor(connect, { where })).catch((error: unknown) => {
      // A failed build is not kept: the next call reports it again.
      pending = undefined;
      throw unusable(error);
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
