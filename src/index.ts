export * from './types.js';
export {
  createBaasClient,
  type BaasClient,
  type UpdateNaturalPersonInput,
  type ListPixKeysInput,
} from './client/baas-client.js';
export type { BaasClientOptions, CallOptions, ResponseValidation } from './client/options.js';
export type { FetchLike } from './fetch.js';
export type { TokenFunction } from './client/token.js';
export type { DriftEvent, DriftProblem, DriftPart } from './drift/problems.js';
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
export {
  clientCredentials,
  type ClientCredentialsTokenSource,
  type ClientCredentialsOptions,
  type ClientAuthMethod,
} from './auth/client-credentials.js';
export type { TokenError, TokenFailure } from './auth/token-error.js';
export type { TlsOptions, TlsMaterial } from './tls/options.js';
export type { Logger, LogLevel } from './logging/levels.js';
export type {
  BaasEvent,
  BaasEventType,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  ErrorEvent,
  TokenEvent,
} from './logging/events.js';
export type { RateLimitInfo } from './logging/rate-limit.js';
export type { BaasEventListener } from './client/events.js';
export { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
export { updateMany, type UpdateManyRun, type BatchClient } from './batch/update-many.js';
export {
  exportKeys,
  exportKeyPages,
  type ExportKeysOptions,
  type KeyPage,
  type ExportClient,
} from './batch/export-keys.js';
export type { UpdateManyOptions, PacingOptions } from './batch/options.js';
export type { UpdateItem, UpdateManyResult, UpdateSuccess, UpdateFailure } from './batch/results.js';
export type { BatchProgress } from './batch/progress.js';
export type { RequestLimiter } from './batch/limiter.js';
