// Logs and events for the client. No Node-only import.
export {
  createEventLog,
  redactEvent,
  passes,
  type EventLog,
  type EventLogOptions,
  type BaasEventListener,
} from './event-log.js';
export {
  levelOf,
  messageOf,
  type BaasEvent,
  type BaasEventType,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
  type BaasErrorEvent,
  type TokenEvent,
} from './events.js';
export {
  resolveLogging,
  LOG_LEVELS,
  type Logger,
  type LogLevel,
  type LogMethod,
  type LoggingOptions,
  type ResolvedLogging,
} from './levels.js';
export { parseRateLimit, parseStructuredList, type RateLimitInfo } from './rate-limit.js';
