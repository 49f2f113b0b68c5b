// A documented response picked with `Prefer: code=…, example=…`, as Prism would serve it; also the
// body of an injected fault's status.
import { badRequest, statusHeaders } from './problems.js';
import type { OperationName } from '../generated/operations.js';
import { DOCUMENTED } from './spec.js';

/**
 * The sandbox's own success with the status `Prefer: code=…` asks for, when the contract documents that
 * status without a body (the update's 204): the work is done as for the 200, and the body is dropped,
 * so a client can meet the answer a provider may give. Any other answer is returned as it is.
 */
export function withBodilessStatus(operation: OperationName, code: number | undefined, answer: Response): Response {
  if (code === undefined || code === answer.status || !answer.ok) return answer;
  if (DOCUMENTED[operation].get(code)?.hasBody !== false) return answer;
  const headers = new Headers(answer.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  return new Response(null, { status: code, headers });
}

/** What a refused `Prefer` can ask for instead: the operation's documented codes, or its examples (for `code`). */
function documentedChoices(operation: OperationName, code: number | undefined, asked: 'code' | 'example'): string {
  const responses = [...DOCUMENTED[operation].values()];
  if (asked === 'code') return ` It documents ${responses.map((response) => response.status).join(', ')}.`;
  const names = responses
    .filter((response) => code === undefined || response.status === code)
    .flatMap((response) => [...response.examples.keys()]);
  return names.length === 0 ? '' : ` Its examples${code ? ` for ${code}` : ''}: ${names.join(', ')}.`;
}

/** The answer `Prefer` asks for; undefined for the sandbox's own answer (no preference, or a 2xx code alone). */
export function preferred(
  operation: OperationName,
  code: number | undefined,
  example: string | undefined,
  requestId: string,
): Response | undefined {
  const responses = DOCUMENTED[operation];
  let status = code;
  let body: unknown;
  if (example !== undefined) {
    const found = [...responses.values()].find(
      (response) => (code === undefined || response.status === code) && response.examples.has(example),
    );
    if (!found)
      return badRequest(
        `Prefer asks for example=${example}, which ${operation} does not document${code ? ` for ${code}` : ''}.${documentedChoices(operation, code, 'example')}`,
        requestId,
      );
    status = found.status;
    body = found.examples.get(example);
  } else if (code !== undefined) {
    const found = responses.get(code);
    if (!found)
      return badRequest(
        `Prefer asks for code=${code}, which ${operation} does not document.${documentedChoices(operation, code, 'code')}`,
        requestId,
      );
    // 2xx without an example: the sandbox's own answer.
    if (code < 300) return undefined;
    body = found.examples.values().next().value;
  }
  if (status === undefined) return undefined;
  // Every documented error's example is a problem: it gets this request's id.
  if (status >= 400)
    body = { ...(body as object), instance: `/problems/occurrences/${requestId}`, correlationId: requestId };
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': type, 'x-request-id': requestId, ...statusHeaders(status) },
  });
}
