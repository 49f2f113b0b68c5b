// Faults a test arms for the next N calls of an operation: a status with its body and headers, a
// delay, or a dropped connection.
import type { OperationId } from './spec.js';

export interface Fault {
  /** The operation to disturb, or '*' for both. */
  operation: OperationId | '*';
  /** How many calls get the fault. Default 1. */
  times?: number;
  /** Wait this long first (ms). With nothing else, the call is then served normally. */
  delayMs?: number;
  /** Answer with this status; the body defaults to the spec's example for it. */
  status?: number;
  /** A body to send instead (an object is sent as JSON). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Close the connection without an answer (in process: the fetch rejects as Node's fetch does). */
  drop?: boolean;
}

/**
 * Thrown by the handler for a dropped connection; the HTTP adapter destroys the socket, the in-process
 * fetch rejects as Node's does. It never reaches a user, so it carries no message of its own.
 */
export class DroppedConnection extends Error {}

export class FaultQueue {
  // Set by reset(), from the constructor.
  private armed!: { fault: Fault; left: number }[];

  constructor(private readonly initial: readonly Fault[]) {
    this.reset();
  }

  add(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError('sandbox fault: times must be a positive integer');
    if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599)) {
      throw new RangeError('sandbox fault: status must be an HTTP status (100-599)');
    }
    this.armed.push({ fault, left: times });
  }

  /** The fault for this call, if one is armed (first armed, first used). */
  take(operation: OperationId): Fault | undefined {
    const index = this.armed.findIndex((entry) => entry.fault.operation === '*' || entry.fault.operation === operation);
    if (index < 0) return undefined;
    const entry = this.armed[index]!;
    entry.left -= 1;
    if (entry.left === 0) this.armed.splice(index, 1);
    return entry.fault;
  }

  reset(): void {
    this.armed = [];
    for (const fault of this.initial) this.add(fault);
  }
}
