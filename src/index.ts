export * from './types.js';
export { createBaasClient, type BaasClient, type UpdateNaturalPersonInput, type ListPixKeysInput } from './client/baas-client.js';
export type { BaasClientOptions, CallOptions, FetchLike } from './client/options.js';
export type { RetryOptions } from './client/retry.js';
export type { PixKeysOptions, PageOptions } from './client/pagination.js';
export { createRawClient, headersMiddleware } from './client/raw.js';
export type { RawClient, RawClientOptions, TokenSource } from './client/raw.js';
export {
  BaasError,
  ApiError,
  ValidationError,
  TimeoutError,
  NetworkError,
  ResponseError,
  AuthError,
  isBaasError,
  type BaasErrorKind,
  type ErrorContext,
} from './errors.js';
export { operations as operationTable, operationNames } from './generated/operations.js';
export {
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
  validateListPixKeysQuery,
  isValidCpf,
  type ValidationIssue,
} from './validation/index.js';
export { redactText, redactUrl } from './redact.js';
export { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
