export {
  clientCredentials,
  type ClientCredentialsTokenSource,
  type ClientCredentialsOptions,
  type ClientAuthMethod,
} from './client-credentials.js';
export { BaasTokenError, isTokenError, type TokenFailure, type BaasTokenErrorInit } from './token-error.js';
