// The sandbox's token endpoint under hostile forms and Authorization headers (fast-check, fixed seed):
// never a crash, never a client secret in the answer, only the RFC 6749 §5.2 errors. 300 runs in full
// (oauth.matrix.test.ts), a tenth in npm test (oauth.test.ts), from the same seed (TESTING.md, "Quick
// and matrix", rule 2: a full run of more than a second of CPU).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { type Depth, runsAt } from '../properties/depth.js';
import { answerOf } from './in-process.js';

const TOKEN_URL = 'https://sandbox.baas.test/oauth/token';
// RFC 6749 §5.2: error_description = 1*( %x20-21 / %x23-5B / %x5D-7E )
const DESCRIPTION = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** The property at `depth` (../properties/depth.ts). */
export function oauthHostileProperty(depth: Depth): void {
  describe('POST /oauth/token: hostile input', () => {
    const sandbox: Sandbox = createSandbox({ seed: 'oauth-errors', clients: 2 });
    const { clientId, clientSecret } = sandbox.clients[0]!;

    it('hostile forms and Authorization headers never crash it nor come back in the answer (fast-check, fixed seed)', async () => {
      const part = fc.oneof(
        fc.string(),
        fc.constantFrom(
          'grant_type',
          'client_credentials',
          'client_id',
          'client_secret',
          'scope',
          clientId,
          clientSecret,
          '=',
          '&',
          '%',
          '+',
          '%zz',
          '\u0000',
        ),
      );
      const form = fc
        .array(fc.tuple(part, part), { maxLength: 6 })
        .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
      const header = fc.option(
        fc.oneof(
          fc.string().map((s) => `Basic ${s}`),
          fc.tuple(part, part).map(([id, secret]) => basic(id, secret)),
          fc.string(),
        ),
        { nil: undefined },
      );
      await fc.assert(
        fc.asyncProperty(
          form,
          header,
          fc.constantFrom(
            'application/x-www-form-urlencoded',
            'application/x-www-form-urlencoded; charset=utf-8',
            'text/plain',
          ),
          async (body, authorization, type) => {
            const headers: Record<string, string> = { 'content-type': type };
            if (authorization !== undefined) {
              try {
                new Headers({ authorization });
              } catch {
                return; // Not a header value fetch can send.
              }
              headers.authorization = authorization;
            }
            const answer = await answerOf(
              await sandbox.fetch(new Request(TOKEN_URL, { method: 'POST', headers, body })),
            );
            expect([200, 400, 401]).toContain(answer.status);
            if (answer.status === 200) {
              expect(answer.body.token_type).toBe('Bearer');
              return;
            }
            expect(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope']).toContain(
              answer.body.error,
            );
            expect(answer.body.error_description).toMatch(DESCRIPTION);
            expect(answer.text).not.toContain(clientSecret);
          },
        ),
        { seed: 20261124, numRuns: runsAt(depth, 300) },
      );
    });
  });
}
