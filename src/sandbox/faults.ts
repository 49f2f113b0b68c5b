// Faults a test arms: a status with its body and headers, a delay, or a dropped connection, for the
// next N calls of an operation or for a share of its calls. Which calls a share hits is drawn from a
// random source seeded by the sandbox's seed, so a run is the same for a seed and an order of calls.
import { Random } from './random.js';
import { optionError } from '../option-rules.js';
import { closestName, misspeltMembers } from '../words.js';
import type { OperationName } from '../generated/operations.js';

/** A failure the sandbox acts out (`sandbox.inject(fault)`): a status, a delay, a dropped connection, for some calls of an operation. */
export interface Fault {
  /** The operation to disturb, or '*' for both. */
  operation: OperationName | '*';
  /** How many calls get the fault: the next ones of its operation. Default 1. Not with `share`. */
  times?: number;
  /**
   * Instead of `times`: the share of its operation's calls that get the fault, a number greater than 0
   * and at most 1 (0.05: about one call in twenty). Each call is drawn from the sandbox's seeded random
   * source, so the same seed and the same calls in the same order hit the same calls. It stays armed
   * until `reset()` (which arms the faults given at creation again, their draws started over).
   */
  share?: number;
  /** Wait this long first (ms), from 0 to 2^31-1. With nothing else, the call is then served normally. */
  delayMs?: number;
  /** Answer with this status (100-599); the body defaults to the spec's example for it. */
  status?: number;
  /**
   * The `Retry-After` of the answer, in whole seconds from 0 to 86,400, for a status of 429 or 503.
   * Default 30, the `Retry-After` those statuses otherwise carry in the sandbox. A `retry-after` in `headers` wins.
   */
  retryAfterSeconds?: number;
  /** A body to send instead (an object is sent as JSON). */
  body?: unknown;
  /** Headers to send with the status, over the ones the sandbox sets. */
  headers?: Record<string, string>;
  /** Close the connection without an answer (in process: the fetch rejects as Node's fetch does). */
  drop?: boolean;
}

/** The longest `Retry-After` a fault may set: the contract's maximum (a day). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
/** The longest delay: a timer is never armed beyond 2^31-1 ms. */
export const MAX_DELAY_MS = 2 ** 31 - 1;
const OPERATIONS: readonly (OperationName | '*')[] = ['updateNaturalPerson', 'listPixKeys', '*'];
// Each field of a fault, once: tsc fails here when Fault gains or loses one. A member not named here
// (`stauts`, `time`, `retryAfter`) would be a setting lost without a word, so it is refused.
const FAULT_FIELDS: Record<keyof Fault, true> = {
  operation: true,
  times: true,
  share: true,
  delayMs: true,
  status: true,
  retryAfterSeconds: true,
  body: true,
  headers: true,
  drop: true,
};
const FIELD_NAMES = Object.keys(FAULT_FIELDS);
// A member written as a name is shown; any other (a CPF as a key) may be data, and is not.
const NAME = /^[A-Za-z_$][\w$]{0,63}$/;

/** The refusal of a member that is not a field of a fault: the one meant, or the fields there are. */
function strangerRule(name: string): { field?: string; rule: string } {
  const fields = `(fields: ${FIELD_NAMES.join(', ')})`;
  if (!NAME.test(name))
    return { rule: `has a member that is not a field of a fault (not shown: it may be data) ${fields}` };
  const meant = misspeltMembers({ [name]: true }, FIELD_NAMES)[0]?.meant ?? closestName(name, FIELD_NAMES);
  return {
    field: name,
    rule:
      meant === undefined ? `is not a field of a fault ${fields}` : `is not a field of a fault; did you mean ${meant}?`,
  };
}
// Its own stream of the seed, apart from the seeded data's.
const FAULT_STREAM = 0xfa17;

/**
 * Thrown by the handler for a dropped connection; the HTTP adapter destroys the socket, the in-process
 * fetch rejects as Node's does. It never reaches a user, so it carries no message of its own.
 */
export class DroppedConnection extends Error {}

/** A fault's field and the rule it breaks (no field: the fault itself), or undefined: each field's rule. */
export function faultRule(fault: Fault): { field?: string; rule: string } | undefined {
  if (typeof fault !== 'object' || fault === null || Array.isArray(fault))
    return { rule: 'must be an object, e.g. { operation: "*", status: 503 }' };
  const stranger = Object.keys(fault).find((name) => !Object.hasOwn(FAULT_FIELDS, name));
  if (stranger !== undefined) return strangerRule(stranger);
  if (!OPERATIONS.includes(fault.operation))
    return { field: 'operation', rule: 'must be updateNaturalPerson, listPixKeys or *' };
  const { times, share, status, retryAfterSeconds, delayMs, headers, drop } = fault;
  if (times !== undefined && (!Number.isInteger(times) || times < 1))
    return { field: 'times', rule: 'must be a positive integer' };
  if (share !== undefined && !(typeof share === 'number' && share > 0 && share <= 1))
    return { field: 'share', rule: 'must be a number greater than 0 and at most 1' };
  if (times !== undefined && share !== undefined)
    return {
      field: 'times',
      rule: 'and share cannot both be given: times counts the next calls, share draws each call',
    };
  if (status !== undefined && (!Number.isInteger(status) || status < 100 || status > 599))
    return { field: 'status', rule: 'must be an HTTP status from 100 to 599' };
  if (retryAfterSeconds !== undefined) {
    if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0 || retryAfterSeconds > MAX_RETRY_AFTER_SECONDS)
      return { field: 'retryAfterSeconds', rule: 'must be a whole number of seconds from 0 to 86,400' };
    if (status !== 429 && status !== 503) return { field: 'retryAfterSeconds', rule: 'needs a status of 429 or 503' };
  }
  if (delayMs !== undefined && !(typeof delayMs === 'number' && delayMs >= 0 && delayMs <= MAX_DELAY_MS))
    return { field: 'delayMs', rule: 'must be a number of ms from 0 to 2147483647' };
  if (
    headers !== undefined &&
    (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string'))
  )
    return { field: 'headers', rule: 'must be an object of strings' };
  if (drop !== undefined && typeof drop !== 'boolean') return { field: 'drop', rule: 'must be a boolean' };
  // Without a status, a body or headers would never be sent; without any of the three, the fault changes nothing.
  if (status === undefined) {
    if (fault.body !== undefined) return { field: 'body', rule: 'needs a status, e.g. { status: 503, body: { … } }' };
    if (headers !== undefined)
      return { field: 'headers', rule: 'needs a status, e.g. { status: 503, headers: { … } }' };
    if (!drop && delayMs === undefined)
      return {
        rule: 'needs a status, delayMs or drop: with none of them it changes nothing, e.g. { operation: "*", status: 503 }',
      };
  }
  return undefined;
}

/** What is wrong with a fault, in words that start with its field (`share must be …`), or undefined. */
export function faultProblem(fault: Fault): string | undefined {
  const wrong = faultRule(fault);
  return wrong && (wrong.field === undefined ? `a fault ${wrong.rule}` : `${wrong.field} ${wrong.rule}`);
}

/** The refusal of `fault` (a BaasOptionError naming its field), at `place`; none when it keeps every rule. */
export function checkFault(fault: Fault, place: { where: string; path?: string }): void {
  const wrong = faultRule(fault);
  if (wrong === undefined) return;
  const path = [place.path, wrong.field].filter(Boolean).join('.');
  throw optionError({ where: place.where, option: path || 'fault', rule: wrong.rule }, RangeError);
}

type Armed = { fault: Fault; left: number } | { fault: Fault; share: number };

export class FaultQueue {
  // Set by reset(), from the constructor.
  private armed!: Armed[];
  private random!: Random;

  constructor(
    private readonly initial: readonly Fault[],
    private readonly seed: number,
  ) {
    this.reset();
  }

  add(fault: Fault): void {
    checkFault(fault, { where: 'sandbox fault' });
    this.armed.push(fault.share !== undefined ? { fault, share: fault.share } : { fault, left: fault.times ?? 1 });
  }

  /** The fault for this call, if one is armed and hits it (first armed, first asked). */
  take(operation: OperationName): Fault | undefined {
    for (let index = 0; index < this.armed.length; index += 1) {
      const entry = this.armed[index]!;
      if (entry.fault.operation !== '*' && entry.fault.operation !== operation) continue;
      if ('share' in entry) {
        // A uint32 over 2^32: below `share` for that share of the draws.
        if (this.random.next() / 2 ** 32 < entry.share) return entry.fault;
        continue;
      }
      entry.left -= 1;
      if (entry.left === 0) this.armed.splice(index, 1);
      return entry.fault;
    }
    return undefined;
  }

  reset(): void {
    this.armed = [];
    this.random = new Random(this.seed, FAULT_STREAM);
    for (const fault of this.initial) this.add(fault);
  }
}
