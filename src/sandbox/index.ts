// `baas-pix-contract/sandbox`: a stateful implementation of the contract for tests, in process or
// over HTTP. Its heavier helpers (Faker, @hono/node-server, msw) are optional peers loaded here only.
export {
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  type ListenOptions,
  type RunningSandbox,
} from './sandbox.js';
export type { SandboxClient, SandboxAccount, CustomerData } from './data.js';
export type { Fault } from './faults.js';
export { SANDBOX_LIMITS, SANDBOX_TOKENS } from './limits.js';
export type { RateLimitOptions } from './rate-limit.js';
export type { SandboxSnapshot, SnapshotAccount } from './snapshot.js';
export { createMswHandlers, type MswHandlerOptions, type MswHttp } from './msw.js';
// The contract's types the declarations above name (`CustomerData`, `SnapshotAccount.keys`,
// `Fault.operation`) and what they are aliases of: the root entry's own types, so a test that
// imports only this entry can name them too.
export type { components, NaturalPersonUpdate, operations, PixKey } from '../types.js';
export type { OperationName } from '../generated/operations.js';
