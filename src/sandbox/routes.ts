// Which operation of the contract a request is for, from its path and method; a 404 or a 405 otherwise.
import { problem } from './problems.js';
import { operationNames, operations, type OperationName } from '../generated/operations.js';

// Path → method and operation, from the generated operation table (the one the request builder reads).
const ROUTES: Record<string, { method: string; operation: OperationName }> = Object.fromEntries(
  operationNames.map((operation) => [operations[operation].path, { method: operations[operation].method, operation }]),
);

export type Route = { operation: OperationName } | { refused: Response };

export function route(url: URL, method: string, requestId: string): Route {
  const found = ROUTES[url.pathname];
  if (!found)
    return {
      refused: problem(
        { status: 404, slug: 'not-found', title: 'Not found', detail: 'No operation of the contract has this path.' },
        requestId,
      ),
    };
  if (method !== found.method) {
    return {
      refused: problem(
        {
          status: 405,
          slug: 'method-not-allowed',
          title: 'Method not allowed',
          detail: `This path answers ${found.method} only.`,
          headers: { allow: found.method },
        },
        requestId,
      ),
    };
  }
  return { operation: found.operation };
}
