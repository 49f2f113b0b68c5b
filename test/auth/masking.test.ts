// No client secret, Basic credentials or issued token in a BaasTokenError: each text the token endpoint
// or the network hands back is masked before it becomes the error's code, description, message or
// cause. (Its own file: the first test here is the first to load the token request, so a mutation run
// counts it among the tests that cover the mask itself.)
import { describe, expect, it } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { type BaasTokenError } from '../../src/auth/token-error.js';
import { expectClean, failure, fakeEndpoint as answering, fakeOptions, SECRET, tokenAnswer } from './fake-endpoint.js';

describe('secrets masked in a BaasTokenError', () => {
  it('the client secret, its Basic form and an issued token are masked in the code and the description', async () => {
    let basic = '';
    let call = 0;
    const endpoint = answering((request) => {
      call += 1;
      basic = (request.headers.authorization ?? '').replace(/^Basic /, '');
      if (call === 1) return tokenAnswer({ access_token: 'issued-token-1' });
      return tokenAnswer(
        { error: `bad_${SECRET}`, error_description: `got ${basic} and issued-token-1, secret ${SECRET}` },
        401,
      );
    });
    const source = clientCredentials(fakeOptions(endpoint));
    expect(await source()).toBe('issued-token-1');
    source.invalidate();
    const error = (await source().catch((e: unknown) => e)) as BaasTokenError;
    expect(error.error).toBe('bad_[REDACTED]');
    const masked = 'got [REDACTED] and [REDACTED], secret [REDACTED]';
    expect(error.errorDescription).toBe(masked);
    expect(error.message.endsWith(`HTTP 401 bad_[REDACTED]: ${masked}`)).toBe(true);
    expectClean(error, [SECRET, basic, 'issued-token-1']);
  });

  it('a secret of 4 characters is masked; one of 3 is not (it would mask innocent words)', async () => {
    const four = await failure(
      answering(() => tokenAnswer({ error: 'invalid_client', error_description: 'wxyz refused' }, 401)),
      { clientSecret: 'wxyz' },
    );
    expect(four.errorDescription).toBe('[REDACTED] refused');
    const three = await failure(
      answering(() => tokenAnswer({ error: 'invalid_client', error_description: 'the key refused' }, 401)),
      { clientSecret: 'key' },
    );
    expect(three.errorDescription).toBe('the key refused');
  });

  it('the code is cut to 100 characters and the description to 500, after masking', async () => {
    const code = 'e'.repeat(150);
    const description = `${SECRET} ${'d'.repeat(600)}`;
    const error = await failure(answering(() => tokenAnswer({ error: code, error_description: description }, 400)));
    // Cut where src/redact.ts bounds provider text: the first 100 (500) characters, then how many more there were.
    expect(error.error).toBe(`${'e'.repeat(100)}… (50 more characters)`);
    expect(error.errorDescription?.startsWith(`[REDACTED] ${'d'.repeat(489)}… (`)).toBe(true);
    expect(error.message.endsWith(`HTTP 400 ${error.error}: ${error.errorDescription}`)).toBe(true);
  });

  it('a cause that names the secret is masked in the cause too', async () => {
    const error = await failure(answering(() => Promise.reject(new Error(`proxy refused ${SECRET}`))));
    expect(error.message).toMatch(/refused \[REDACTED\]$/);
    expect((error.cause as Error).message).toBe('proxy refused [REDACTED]');
  });
});
