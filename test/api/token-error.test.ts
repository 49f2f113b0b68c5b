// TokenError is a value of the root entry (it was a type only): a program tells a failed token request
// from other errors with instanceof, as it does every other error class.
import { describe, expect, it } from 'vitest';
import { AuthError, BaasError, clientCredentials, TokenError } from '../../src/index.js';

describe('TokenError', () => {
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
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toBeInstanceOf(BaasError);
    expect((error as TokenError).failure).toBe('rejected');
    expect(new AuthError('no token')).not.toBeInstanceOf(TokenError);
  });
});
