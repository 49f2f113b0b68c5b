// The client's side of logs and events: `client.on(type, listener)` and the `logger`/`logLevel`
// options. The observer (src/logging/client-events.ts) is attached when a logger or a log level is
// given, or on the first listener, so a client with none builds no event at all.
import { attachEvents } from '../logging/client-events.js';
import type { EventLog } from '../logging/event-log.js';
import type { BaasEvent, BaasEventType } from '../logging/events.js';
import type { ResolvedLogging } from '../logging/levels.js';
import type { ClientState } from './call.js';

/** Receives the events of one type, already redacted: the same objects the logger gets. */
export type BaasEventListener<T extends BaasEventType = BaasEventType> = (
  event: Extract<BaasEvent, { type: T }>,
) => void;

export interface ClientEvents {
  on<T extends BaasEventType>(type: T, listener: BaasEventListener<T>): () => void;
}

export function clientEvents(state: ClientState, logging: ResolvedLogging | undefined): ClientEvents {
  let log: EventLog | undefined = logging ? attachEvents(state, logging) : undefined;
  return {
    on(type, listener) {
      log ??= attachEvents(state, logging);
      const stop = log.on(type, listener);
      return () => void stop();
    },
  };
}
