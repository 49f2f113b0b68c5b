export {
  clientCredentials,
  type ClientCredentialsTokenSource,
  type ClientCredentialsOptions,
  type ClientAuthMethod,
} from './client-credentials.js';
export { TokenError, isTokenError, type TokenFailure, type TokenErrorInit } from './token-error.js';
