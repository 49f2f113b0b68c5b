// createTlsFetch: the `tls` option checked, then the fetch built on undici (agent.ts).
import { checkTlsOptions, type TlsOptions } from './options.js';
import { tlsFetchFor, type TlsFetch, type TlsFetchOptions } from './agent.js';

export type { TlsFetch, TlsFetchOptions } from './agent.js';

/** A fetch presenting the given client certificate and/or trusting the given authority. */
export async function createTlsFetch(tls: TlsOptions, options: TlsFetchOptions = {}): Promise<TlsFetch> {
  return tlsFetchFor(checkTlsOptions(tls, options.where ?? 'tls'), options);
}
