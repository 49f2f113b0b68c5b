// createTlsFetch: the `tls` option checked, then the fetch built on undici (agent.ts).
import { checkTlsOptions, type TlsOptions } from './options.js';
import { tlsFetchFor, type TlsFetch, type TlsFetchOptions } from './agent.js';
import { incurableTls } from './failure.js';

export type { TlsFetch, TlsFetchOptions } from './agent.js';

/** A fetch presenting the given client certificate and/or trusting the given authority. */
export async function createTlsFetch(tls: TlsOptions, options: TlsFetchOptions = {}): Promise<TlsFetch> {
  return tlsFetchFor(checkTlsOptions(tls, options.where ?? 'tls'), options);
}

/**
 * A TLS option that could not be used (a malformed shape, a wrong passphrase, a key of another
 * certificate, undici missing). Its message names the field, never a value; `code` and `reason`
 * let the client's BaasNetworkError say it. Of kind `option` (failure.ts): another attempt presents the
 * same option, so the retry loop ends at the first (`incurable`).
 */
const unusable = (error: unknown): Error => {
  const message = error instanceof Error ? error.message : String(error);
  const code = 'ERR_TLS_OPTION';
  return Object.assign(new TypeError(message, { cause: error }), {
    code,
    reason: message,
    incurable: incurableTls({ kind: 'option', code }),
  });
};

/** What lazyTlsFetch (lazy.ts) builds on the first request: the TLS fetch, or why the option cannot be used. */
export const usableTlsFetch = (tls: TlsOptions, where: string): Promise<TlsFetch> =>
  createTlsFetch(tls, { where }).catch((error: unknown) => {
    throw unusable(error);
  });
