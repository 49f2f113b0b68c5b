// The client's side of logs and events: `client.on(type, listener)` and the `logger`/`logLevel`
// options. The observer (src/logging/client-events.ts) is attached when a logger or a log level is
// given, or on the first listener, so a client with none builds no event at all.
import { attachEvents } from '../logging/client-events.js';
import type { EventLog } from '../logging/event-log.js';
import type { ResolvedLogging } from '../logging/levels.js';
import type { BaasClient } from './baas-client.js';
import type { ClientState } from './call.js';

/** The client's `on`, declared once, in the `BaasClient` interface a user reads. */
export function clientEvents(state: ClientState, logging: ResolvedLogging | undefined): Pick<BaasClient, 'on'> {
  let log: EventLog | undefined = logging ? attachEvents(state, logging) : undefined;
  return {
    on(type, listener) {
      log ??= attachEvents(state, logging);
      const stop = log.on(type, listener);
      return () => void stop();
    },
  };
}
