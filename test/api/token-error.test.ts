// BaasTokenError is a value of the root entry (it was a type only): a program tells a failed token request
// from other errors with instanceof, as it does every other error class.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  BaasAuthError,
  BaasError,
  clientCredentials,
  BaasTokenError,
  type BaasTokenErrorInit,
} from '../../src/index.js';
import { Secrets } from '../../src/redact.js';

/** An error's context where no secret is known: every rule of the masking still applies. */
const NONE = { secrets: Secrets.none };

describe('BaasTokenError', () => {
  it('is what a refused token request rejects with, and instanceof tells it apart', async () => {
    const refuse = async () =>
      Response.json({ error: 'invalid_client' }, { status: 401, headers: { 'content-type': 'application/json' } });
    const source = clientCredentials({
      tokenUrl: 'https://auth.example.test/token',
      clientId: 'id',
      clientSecret: 'token-error-secret',
      fetch: refuse,
    });
    const error = await source().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasTokenError);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect(error).toBeInstanceOf(BaasError);
    expect((error as BaasTokenError).failure).toBe('rejected');
    expect(new BaasAuthError('no token', NONE)).not.toBeInstanceOf(BaasTokenError);
  });

  it('built by hand (a test double of a token source), shows no credentials of the token URL anywhere', () => {
    const init: BaasTokenErrorInit = {
      failure: 'rejected',
      tokenUrl: 'https://client-id:hand-built-secret@auth.example.test/token',
      detail: 'refused',
      secrets: Secrets.none,
    };
    const error = new BaasTokenError(init);
    expect(error.tokenUrl).toBe('https://auth.example.test/token');
    for (const surface of [error.message, String(error), JSON.stringify(error), inspect(error)]) {
      expect(surface).not.toContain('hand-built-secret');
      expect(surface).not.toContain('client-id:');
    }
  });
});
