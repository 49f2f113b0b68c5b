export * from './types.js';
export { createRawClient, authMiddleware, userAgentMiddleware } from './client/raw.js';
export type { RawClient, RawClientOptions, TokenSource } from './client/raw.js';
