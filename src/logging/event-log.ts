// One place where events are redacted, logged at their level, and handed to listeners. The client
// asks `wants(type)` before building an event, so a client with logging off pays one check.
import { redactText, redactUrl } from '../redact.js';
import { levelOf, messageOf, type BaasEvent, type BaasEventType } from './events.js';
import { resolveLogging, type LoggingOptions, type LogLevel, type LogMethod, type ResolvedLogging } from './levels.js';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Whether an entry of `method` passes the threshold `level`. */
export const passes = (method: LogMethod, level: LogLevel): boolean => RANK[method] <= RANK[level];

export type BaasEventListener<T extends BaasEventType = BaasEventType> = (
  event: Extract<BaasEvent, { type: T }>,
) => void;

export interface EventLogOptions extends LoggingOptions {
  /** Tokens, client secrets and other values to mask wherever they appear. Called at each emit. */
  secrets?: () => Iterable<string>;
  /** Names this log's owner in option errors. */
  where?: string;
}

export interface EventLog {
  /** Whether an event of this type would reach a logger or a listener. */
  wants(type: BaasEventType): boolean;
  /**
   * Redacts the event (with `secrets()` and `also`, such as the numbers a call carries), logs it at
   * its level and hands it to listeners. Never throws.
   */
  emit(event: BaasEvent, also?: readonly string[]): void;
  /** Adds a listener; returns the function that removes it. */
  on<T extends BaasEventType>(type: T, listener: BaasEventListener<T>): () => void;
}

const MASK = '[REDACTED]';
/** Header values that are credentials whole. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-client-secret',
]);
const MAX_DEPTH = 6;
/** The most severe level an event of each type can be logged at (see levelOf). */
const MOST_SEVERE: Record<BaasEventType, LogMethod> = {
  request: 'debug',
  response: 'debug',
  retry: 'info',
  error: 'error',
  token: 'warn',
  drift: 'warn',
};

/**
 * A member defined under its redacted name (a header or a body member may be named by a CPF or a
 * token), told apart by a suffix when two names redact alike; defined, not assigned, so that a
 * name such as `__proto__` stays a member.
 */
function define(out: Record<string, unknown>, name: string, value: unknown, secrets: string[]): void {
  const base = redactText(name, secrets);
  let key = base;
  for (let n = 2; Object.hasOwn(out, key); n += 1) key = `${base} (${n})`;
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

function redactHeaders(headers: Record<string, string>, secrets: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower)) {
      // Keep the scheme (Bearer, Basic): it helps diagnose, and is no secret.
      const scheme = /^(Bearer|Basic)\s/i.exec(value)?.[1];
      out[lower] = scheme ? `${scheme} ${MASK}` : MASK;
    } else define(out, lower, redactText(String(value), secrets), secrets);
  }
  return out;
}

/** A deep copy with every string and member name redacted: URLs by redactUrl, headers by name, the rest as text. */
export function redactEvent<T extends BaasEvent>(event: T, secrets: string[]): T {
  const walk = (node: unknown, key: string, depth: number): unknown => {
    if (typeof node === 'string')
      return key === 'url' || key === 'tokenUrl' ? redactUrl(node, secrets) : redactText(node, secrets);
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return typeof node === 'object' ? undefined : node;
    if (key === 'headers' && !Array.isArray(node)) return redactHeaders(node as Record<string, string>, secrets);
    if (Array.isArray(node)) return node.map((item) => walk(item, key, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (v !== undefined) define(out, k, walk(v, k, depth + 1), secrets);
    return out;
  };
  return walk(event, '', 0) as T;
}

/** The event log over checked options (see resolveLogging; undefined: listeners only), masking `secrets()`. */
export function eventLog(logging: ResolvedLogging | undefined, secrets: () => Iterable<string>): EventLog {
  const listeners = new Map<BaasEventType, Set<(event: BaasEvent) => void>>();
  const logger = logging?.logger;

  const logs = (event: BaasEvent) => logger !== undefined && passes(levelOf(event), logging!.level);

  return {
    wants(type) {
      if (listeners.get(type)?.size) return true;
      return logger !== undefined && passes(MOST_SEVERE[type], logging!.level);
    },
    emit(event, also = []) {
      const toLog = logs(event);
      const set = listeners.get(event.type);
      if (!toLog && !set?.size) return;
      let safe: BaasEvent;
      try {
        safe = redactEvent(event, [...secrets(), ...also]);
      } catch {
        return;
      }
      if (toLog) {
        try {
          logger![levelOf(safe)](messageOf(safe), safe);
        } catch {
          // A broken logger must not break the call it reports on.
        }
      }
      for (const listener of set ?? []) {
        try {
          listener(safe);
        } catch {
          // Nor a broken listener.
        }
      }
    },
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      const entry = listener as (event: BaasEvent) => void;
      set.add(entry);
      return () => set.delete(entry);
    },
  };
}

/** The event log for use outside the client (tests, tools): its options checked, naming `where`. */
export function createEventLog(options: EventLogOptions = {}): EventLog {
  return eventLog(resolveLogging(options, options.where), options.secrets ?? (() => []));
}
