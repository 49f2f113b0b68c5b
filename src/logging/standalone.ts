// The event log for use outside the client (tests, tools): checks its options and binds redact.ts.
// The client itself builds its log with eventLog (client-events.ts), handing in what its entry holds.
import { redactText, redactUrl } from '../redact.js';
import { eventLog, redactEvent as redactWith, type EventLog, type EventLogOptions } from './event-log.js';
import type { BaasEvent } from './events.js';
import { resolveLogging } from './levels.js';

const redact = { text: redactText, url: redactUrl };

export function createEventLog(options: EventLogOptions = {}): EventLog {
  return eventLog(resolveLogging(options, options.where), options.secrets ?? (() => []), redact);
}

/** A deep copy with every string redacted: URLs by redactUrl, headers by name, the rest as text. */
export const redactEvent = <T extends BaasEvent>(event: T, secrets: string[]): T => redactWith(event, secrets, redact);
