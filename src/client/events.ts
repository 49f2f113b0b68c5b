// The client's side of logs and events: `client.on(type, listener)` and the `logger`/`logLevel`
// options. The logging code (src/logging/client-events.ts) loads by dynamic import when a logger, a
// log level or a listener is first given, so a client with none ships and runs none of it; while it
// loads, calls wait before their first attempt (`ClientState.ready`), so no event is lost.
import type { BaasEvent, BaasEventType } from '../logging/events.js';
import type { EventLog } from '../logging/event-log.js';
import type { ResolvedLogging } from '../logging/levels.js';
import type { ClientState } from './call.js';

/** Receives the events of one type, already redacted: the same objects the logger gets. */
export type BaasEventListener<T extends BaasEventType = BaasEventType> = (event: Extract<BaasEvent, { type: T }>) => void;

export interface ClientEvents {
  on<T extends BaasEventType>(type: T, listener: BaasEventListener<T>): () => void;
}

interface Waiting {
  type: BaasEventType;
  listener: (event: BaasEvent) => void;
  off?: () => void;
}

export function clientEvents(state: ClientState, logging: ResolvedLogging | undefined): ClientEvents {
  let log: EventLog | undefined;
  let loading: Promise<void> | undefined;
  const waiting = new Set<Waiting>();
  const load = () =>
    (loading ??= state.ready =
      import('../logging/client-events.js')
        .then((m) => {
          log = m.attachEvents(state, logging);
          for (const entry of waiting) entry.off = log.on(entry.type, entry.listener);
        })
        .finally(() => (state.ready = undefined)));
  // A failed load reaches the calls waiting on `ready`; here it must not be an unhandled rejection.
  const start = () => void load().catch(() => undefined);
  if (logging) start();
  return {
    on(type, listener) {
      const entry: Waiting = { type, listener: listener as (event: BaasEvent) => void };
      waiting.add(entry);
      if (log) entry.off = log.on(type, entry.listener);
      else start();
      return () => {
        waiting.delete(entry);
        entry.off?.();
      };
    },
  };
}
