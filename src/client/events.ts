// The client's side of logs and events: `client.on(type, listener)` and the `logger`/`logLevel`
// options. The observer (src/logging/client-events.ts) is attached when a logger or a log level is
// given, or on the first listener, so a client with none builds no event at all.
import { attachEvents } from '../logging/client-events.js';
import type { EventLog } from '../logging/event-log.js';
import type { BaasEventType } from '../logging/events.js';
import type { ResolvedLogging } from '../logging/levels.js';
import { closestName } from '../words.js';
import type { BaasClient } from './baas-client.js';
import type { ClientState } from './call.js';

// Every event type, once: tsc fails here when BaasEventType gains or loses one.
const EVENT_TYPES = Object.keys({
  request: true,
  response: true,
  retry: true,
  error: true,
  token: true,
  drift: true,
} satisfies Record<BaasEventType, true>);

/** A listener for a type no event has would never fire: refused, naming the type meant. */
function checkListener(type: unknown, listener: unknown): void {
  if (typeof type !== 'string' || !EVENT_TYPES.includes(type)) {
    const meant = typeof type === 'string' ? closestName(type, EVENT_TYPES) : undefined;
    throw new TypeError(
      `client.on: ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type} is not an event type${meant ? `; did you mean '${meant}'?` : '.'} The types are ${EVENT_TYPES.join(', ')}.`,
    );
  }
  if (typeof listener !== 'function')
    throw new TypeError(`client.on('${type}', listener): listener must be a function`);
}

/** The client's `on`, declared once, in the `BaasClient` interface a user reads. */
export function clientEvents(state: ClientState, logging: ResolvedLogging | undefined): Pick<BaasClient, 'on'> {
  let log: EventLog | undefined = logging ? attachEvents(state, logging) : undefined;
  return {
    on(type, listener) {
      checkListener(type, listener);
      log ??= attachEvents(state, logging);
      const stop = log.on(type, listener);
      return () => void stop();
    },
  };
}
