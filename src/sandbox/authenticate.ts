// Who is calling: the bearer token of a request, a seeded client's static token or one the token
// endpoint issued, becomes the client's index, or the 401 to send.
import type { World } from './data.js';
import type { IssuedTokens } from './issued-tokens.js';
import { unauthorized } from './problems.js';
import { bearerToken, type SandboxRequest } from './request.js';

export type Caller = { clientIndex: number } | { refused: Response };

export class Authenticator {
  private readonly byToken: Map<string, number>;

  constructor(
    world: World,
    private readonly issued: IssuedTokens,
  ) {
    this.byToken = new Map(world.clients.map((client, index) => [client.token, index]));
  }

  caller(request: SandboxRequest, requestId: string): Caller {
    const token = bearerToken(request.headers.get('authorization'));
    if (token === undefined)
      return { refused: unauthorized('A bearer token is required: Authorization: Bearer <token>.', requestId) };
    const clientIndex = this.byToken.get(token);
    if (clientIndex !== undefined) return { clientIndex };
    const found = this.issued.lookup(token);
    if (found === 'expired')
      return {
        refused: unauthorized('The bearer token has expired: ask the token endpoint for a new one.', requestId, true),
      };
    if (found === undefined)
      return { refused: unauthorized('The bearer token is not known to this sandbox.', requestId, true) };
    return { clientIndex: found.clientIndex };
  }
}
