// One place where events are redacted, logged at their level, and handed to listeners. The client
// asks `wants(type)` before building an event, so a client with logging off pays one check.
import { escapeControls, redactJson, Secrets } from '../redact.js';
import { levelOf, messageOf, type BaasEvent, type BaasEventType } from './events.js';
import { resolveLogging, type LoggingOptions, type LogLevel, type LogMethod, type ResolvedLogging } from './levels.js';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Whether an entry of `method` passes the threshold `level`. */
export const passes = (method: LogMethod, level: LogLevel): boolean => RANK[method] <= RANK[level];

/** Receives the events of one type, already redacted: the same objects the logger gets. */
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

// Deeper than this an object of an event is dropped: events are shallow, and what a provider sent
// (a problem) is already bounded in depth by the error that carries it.
const MAX_DEPTH = 7;
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
 * A deep copy with every string and member name redacted (src/redact.ts holds the rules): URLs by
 * redactUrl, headers by name, the rest as bounded text.
 */
export function redactEvent<T extends BaasEvent>(event: T, secrets: Secrets): T {
  const known = secrets.now();
  return redactJson(event, known.values(), {
    maxDepth: MAX_DEPTH,
    tooDeep: undefined,
    dropNull: true,
    text: (text, key) => (key === 'url' || key === 'tokenUrl' ? known.url(text) : known.bounded(text)),
    node: (node, key) =>
      key === 'headers' && !Array.isArray(node) ? known.headers(node as Record<string, unknown>) : undefined,
  });
}

/** The event log over checked options (see resolveLogging; undefined: listeners only), built through `secrets`. */
export function eventLog(logging: ResolvedLogging | undefined, secrets: Secrets): EventLog {
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
        safe = redactEvent(event, secrets.with(also));
      } catch {
        return;
      }
      if (toLog) {
        try {
          logger![levelOf(safe)](escapeControls(messageOf(safe)), safe);
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
  return eventLog(resolveLogging(options, options.where), Secrets.of(options.secrets ?? (() => [])));
}
