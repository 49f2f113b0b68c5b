// Mutual TLS for the client and the token endpoint. Nothing here imports a Node module statically.
export {
  checkTlsOptions,
  type TlsOptions,
  type TlsMaterial,
  type PemClientCertificate,
  type PfxClientCertificate,
  type PrivateCaOnly,
  type ConnectOptions,
} from './options.js';
export { createTlsFetch, type TlsFetch, type TlsFetchOptions } from './fetch.js';
export { fromUrlInitFetch, type UrlInitFetch, type ResponseLike } from './adapt.js';
export { tlsFailure, TlsConnectionError, type TlsFailure } from './failure.js';
export { lazyTlsFetch } from './lazy.js';
