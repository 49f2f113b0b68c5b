export * from './types.js';
export { createBaasClient, type BaasClient, type UpdateNaturalPersonInput, type ListPixKeysInput } from './client/baas-client.js';
export type { BaasClientOptions } from './client/options.js';
export type { RetryOptions } from './client/retry.js';
export type { PixKeysOptions } from './client/pagination.js';
export { createRawClient, headersMiddleware } from './client/raw.js';
export type { RawClient, RawClientOptions, TokenSource } from './client/raw.js';
export {
  BaasError,
  ApiError,
  ValidationError,
  TimeoutError,
  NetworkError,
  ResponseError,
  isBaasError,
  type BaasErrorKind,
} from './errors.js';
export {
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
  validateListPixKeysQuery,
  isValidCpf,
  type ValidationIssue,
} from './validation/index.js';
export { redactText, redactUrl } from './redact.js';
export { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
