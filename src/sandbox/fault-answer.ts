// What an armed fault does to a call: waits, drops the connection, or answers with its status (the
// spec's example for it unless a body is given), or lets the call be served normally.
import { DroppedConnection, type Fault } from './faults.js';
import { preferred } from './preferred.js';
import { statusHeaders } from './problems.js';
import type { OperationName } from '../generated/operations.js';

export async function faultAnswer(
  fault: Fault,
  operation: OperationName,
  requestId: string,
): Promise<Response | undefined> {
  if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  if (fault.drop) throw new DroppedConnection();
  if (fault.status === undefined) return undefined;
  const retryAfter = fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
  const headers = { 'x-request-id': requestId, ...statusHeaders(fault.status), ...retryAfter, ...fault.headers };
  if (fault.body !== undefined) {
    const text = typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
    const type =
      typeof fault.body === 'string'
        ? 'text/plain'
        : fault.status >= 400
          ? 'application/problem+json'
          : 'application/json';
    return new Response(text, { status: fault.status, headers: { 'content-type': type, ...headers } });
  }
  const documented = preferred(operation, fault.status, undefined, requestId);
  if (documented && documented.status === fault.status) {
    for (const [name, value] of Object.entries(headers)) documented.headers.set(name, value);
    return documented;
  }
  return new Response(null, { status: fault.status, headers });
}
