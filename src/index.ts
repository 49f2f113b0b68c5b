// The public entry (`.`). Each export, and why a user needs it: docs/api-surface.md. The recorded
// surface is api/baas-pix-contract.api.md (`npm run api:report` updates it; test/api/ compares).
// The contract's named types (`PixKey`, `NaturalPersonUpdate`, `paths`, …) are not here: they are the
// entry `baas-pix-contract/types` (src/types.ts), so this root holds the client's own names.
export {
  createBaasClient,
  type BaasClient,
  type UpdateNaturalPersonInput,
  type ListPixKeysInput,
} from './client/baas-client.js';
export type { BaasClientOptions, CallOptions, ResponseValidation } from './client/options.js';
export type { BaasPromise, ResponseMetadata, WithResponse } from './client/with-response.js';
export type { FetchLike } from './fetch.js';
export type { TokenFunction } from './client/token.js';
export type { DriftEvent, DriftProblem, DriftPart } from './call-events.js';
export type { RetryOptions } from './client/retry.js';
export type { AttemptContext, AttemptPolicy, Sleep, Tried } from './transport/pipeline.js';
export type { PixKeysOptions, PageOptions } from './client/pagination.js';
export type { HttpMethod, RawClient, RawInitArgs, RawMethod, RawOperation, TokenSource } from './client/raw.js';
export {
  BaasError,
  BaasApiError,
  BaasValidationError,
  BaasTimeoutError,
  BaasNetworkError,
  BaasResponseError,
  BaasAuthError,
  type BaasErrorKind,
  type CallOperation,
  type ErrorContext,
} from './errors.js';
export { isBaasOptionError, type BaasOptionError } from './option-rules.js';
export { operationNames, type OperationName } from './generated/operations.js';
export {
  validateNaturalPersonUpdate,
  validateUpdateNaturalPersonQuery,
  validateListPixKeysQuery,
  isValidCpf,
  isValidCnpj,
  canonicalIdentifier,
  type CanonicalIdentifier,
  type IdentifierKind,
  type IdentifierProblem,
  type IdentifierProblemCode,
  type ValidationIssue,
} from './validation/index.js';
export {
  clientCredentials,
  type ClientCredentialsTokenSource,
  type ClientCredentialsOptions,
  type ClientAuthMethod,
} from './auth/client-credentials.js';
export { BaasTokenError, type BaasTokenErrorInit, type TokenFailure } from './auth/token-error.js';
export { Secrets } from './redact.js';
export type {
  TlsOptions,
  TlsMaterial,
  PemClientCertificate,
  PfxClientCertificate,
  PrivateCaOnly,
} from './tls/options.js';
export type { Logger, LogLevel } from './logging/levels.js';
export type {
  BaasEvent,
  BaasEventType,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  BaasErrorEvent,
  TokenEvent,
  CallEventFields,
} from './logging/events.js';
export type { RateLimitInfo } from './logging/rate-limit.js';
export type { BaasEventListener } from './logging/event-log.js';
export { updateMany, type UpdateManyRun, type UpdateManySummary, type BatchClient } from './batch/update-many.js';
export {
  exportKeys,
  type ExportKeysOptions,
  type ExportKeysRun,
  type ExportSummary,
  type KeyPage,
  type ExportClient,
} from './batch/export-keys.js';
export type { UpdateManyOptions, PacingOptions } from './batch/options.js';
export type { UpdateItem, UpdateManyResult, UpdateSuccess, UpdateFailure } from './batch/results.js';
export type { BatchProgress } from './batch/progress.js';
export type { RequestLimiter } from './batch/limiter.js';
