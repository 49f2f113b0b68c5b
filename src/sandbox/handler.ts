// One request through the sandbox, in order: the token endpoint apart; then the route, an armed
// fault (before the token, as a proxy's would be), the caller, the rate limit, `Prefer`, and the
// operation itself. Whatever fails inside becomes a 500 problem, except a dropped connection.
import type { Authenticator } from './authenticate.js';
import type { Customers } from './customers.js';
import { faultAnswer } from './fault-answer.js';
import { DroppedConnection, type FaultQueue } from './faults.js';
import type { KeyPages } from './key-pages.js';
import { listPixKeys } from './list-keys.js';
import { TOKEN_PATH } from './oauth.js';
import { preferred, withBodilessStatus } from './preferred.js';
import { problem } from './problems.js';
import { redactText } from '../redact.js';
import type { RateLimiter } from './rate-limit.js';
import { preference, type SandboxRequest } from './request.js';
import { route } from './routes.js';
import { updateNaturalPerson } from './update-customer.js';

export interface HandlerParts {
  tokenEndpoint: { handle(request: SandboxRequest, url: URL, requestId: string): Promise<Response> };
  authenticator: Authenticator;
  faults: FaultQueue;
  limiter: RateLimiter | undefined;
  pages: KeyPages;
  customers: Customers;
}

/** `inProcess` only picks the faster Response for a page (see list-keys.ts). */
export type Handler = (request: SandboxRequest, inProcess: boolean) => Promise<Response>;

/**
 * A request id: a UUID the masking leaves whole. About one UUID in thirty holds eleven digits joined as a
 * CPF's are (`c39ef702-c253-49b0-b374-f18386048867`), which every surface (an error's requestId, a log
 * line, the command line) would show masked, `f*********67`: such a one is drawn again.
 */
export function sandboxRequestId(): string {
  for (;;) {
    const id = globalThis.crypto.randomUUID();
    if (redactText(id) === id) return id;
  }
}

export function createHandler(parts: HandlerParts): Handler {
  async function handle(request: SandboxRequest, inProcess: boolean): Promise<Response> {
    const requestId = sandboxRequestId();
    // A Request's URL always parses, and lightRequest takes only URLs that do.
    const url = new URL(request.url);
    // The sandbox's own helper, not an operation of the contract: no faults, no rate limit.
    if (url.pathname === TOKEN_PATH) return parts.tokenEndpoint.handle(request, url, requestId);
    const routed = route(url, request.method, requestId);
    if ('refused' in routed) return routed.refused;
    const { operation } = routed;
    const fault = parts.faults.take(operation);
    if (fault) {
      const faulted = await faultAnswer(fault, operation, requestId);
      if (faulted) return faulted;
    }
    const caller = parts.authenticator.caller(request, requestId);
    if ('refused' in caller) return caller.refused;
    const { clientIndex } = caller;
    // Per client, not per token: its issued tokens share the bucket of its static token.
    const verdict = parts.limiter?.check(clientIndex, requestId);
    if (verdict !== undefined && 'refused' in verdict) return verdict.refused;
    const prefer = preference(request.headers.get('prefer'));
    const answer =
      preferred(operation, prefer.code, prefer.example, requestId) ??
      withBodilessStatus(
        operation,
        prefer.code,
        operation === 'listPixKeys'
          ? await listPixKeys(parts.pages, request, url, clientIndex, requestId, inProcess)
          : await updateNaturalPerson(parts.customers, request, url, clientIndex, requestId),
      );
    // The contract documents the rate-limit fields on 2xx and 4xx answers.
    if (verdict !== undefined && answer.status < 500)
      for (const [name, value] of Object.entries(verdict.headers)) answer.headers.set(name, value);
    return answer;
  }

  /** Never throws, except DroppedConnection: a bug becomes a 500 problem (updates apply whole or not at all). */
  return async (request, inProcess) => {
    try {
      return await handle(request, inProcess);
    } catch (error) {
      if (error instanceof DroppedConnection) throw error;
      return problem(
        {
          status: 500,
          slug: 'internal',
          title: 'Internal server error',
          detail: 'The sandbox failed to handle the request.',
        },
        sandboxRequestId(),
      );
    }
  };
}
