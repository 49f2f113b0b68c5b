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
    // Not `Authorization: Bearer <token>`: wherever this detail is shown it is masked (src/redact.ts), and
    // a value after `Authorization:` is a credential whatever its shape (rightly: a header line quoted in
    // a log or an error holds a real one), so the help would be shown `Authorization: [REDACTED]`.
    if (token === undefined)
      return {
        refused: unauthorized(
          'A bearer token is required: send the Authorization header as Bearer <token>.',
          requestId,
        ),
      };
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
