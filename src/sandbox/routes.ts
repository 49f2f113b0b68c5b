// Which operation of the contract a request is for, from its path and method; a 404 or a 405 otherwise.
import { problem } from './problems.js';
import type { OperationName } from '../generated/operations.js';

const ROUTES: Record<string, { method: string; operation: OperationName }> = {
  '/v2/api/baas-onboarding/account/natural-person': { method: 'PUT', operation: 'updateNaturalPerson' },
  '/v2/api/pix/keys/list-keys': { method: 'GET', operation: 'listPixKeys' },
};

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
