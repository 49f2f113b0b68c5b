// What the client does with a token source's answer, word for word: a failure or an unusable value
// is a BaasAuthError before anything is sent, naming the problem and never the value.
import { describe, expect, it, vi } from 'vitest';
import { BaasAuthError } from '../../src/errors.js';
import { redactedCause } from '../../src/redact.js';
import { resolveToken, tokenProblem } from '../../src/client/token.js';
import { Secrets } from '../../src/redact.js';

/** An error's context where no secret is known: every rule of the masking still applies. */
const NONE = { secrets: Secrets.none };

describe('tokenProblem', () => {
  it.each([
    [undefined, 'the token source gave undefined, not a string'],
    [42, 'the token source gave a number, not a string'],
    [{ token: 'x' }, 'the token source gave a object, not a string'],
    ['', 'the token source gave an empty token'],
    [' \t ', 'the token source gave an empty token'],
    [
      'abc\r\nX-Evil: 1',
      'the token source gave a token that holds a control character (a tab, a line break, an escape): give the token alone, as one line of text',
    ],
    [
      'abc\u0000',
      'the token source gave a token that holds a control character (a tab, a line break, an escape): give the token alone, as one line of text',
    ],
    [
      '\u001fabc',
      'the token source gave a token that holds a control character (a tab, a line break, an escape): give the token alone, as one line of text',
    ],
    [
      'abc\u007f',
      'the token source gave a token that holds a control character (a tab, a line break, an escape): give the token alone, as one line of text',
    ],
    [
      'abc\r\n',
      'the token source gave a token that ends with a line break, as a token read from a file or a .env saved on Windows does: give the token alone, without it',
    ],
    ['abc-def.123_~+/=', undefined],
    [
      'abc\u0080def',
      'the token source gave a token that holds a control character (U+0080), which no token has: copy the whole token as it was issued (the sandbox prints one when it starts)',
    ],
    [
      'sbx_\u2026',
      "the token source gave a token that holds '\u2026' (U+2026, an ellipsis), which no token has: copy the whole token as it was issued (the sandbox prints one when it starts)",
    ],
  ])('%j → %j', (value, problem) => {
    expect(tokenProblem(value)).toBe(problem);
  });
});

describe('redactedCause', () => {
  it('keeps an error name, and masks the secrets and CPFs of its message and stack', () => {
    const original = new RangeError('idp said no to secret-token-1 for 52998224725');
    const copy = redactedCause(original, ['secret-token-1']);
    expect(copy).not.toBe(original);
    expect(copy.name).toBe('RangeError');
    const masked = 'idp said no to [REDACTED] for *********25';
    expect(copy.message).toBe(masked);
    expect(copy.stack).toContain(masked);
    expect(copy.stack).not.toContain('secret-token-1');
  });

  it('turns what is not an Error into one, redacted', () => {
    const copy = redactedCause('down: secret-token-1', ['secret-token-1']);
    expect(copy).toBeInstanceOf(Error);
    expect(copy.message).toBe('down: [REDACTED]');
  });

  it('copes with an error without a stack', () => {
    const original = new Error('gone');
    delete original.stack;
    expect(redactedCause(original, []).stack).toBe('');
  });
});

describe('resolveToken', () => {
  const context = () => ({ operation: 'listPixKeys' as const, attempts: 0, ...NONE });

  it('returns a string token and lets the client remember it', async () => {
    const remember = vi.fn();
    await expect(resolveToken('fixed-token-1', Secrets.none, remember, context)).resolves.toBe('fixed-token-1');
    await expect(resolveToken(async () => 'fresh-token-2', Secrets.none, remember, context)).resolves.toBe(
      'fresh-token-2',
    );
    expect(remember.mock.calls).toEqual([['fixed-token-1'], ['fresh-token-2']]);
  });

  it('a source that throws: BaasAuthError "the token source failed; nothing was sent", the cause redacted', async () => {
    const error = await resolveToken(
      async () => {
        throw new Error('idp down, secret-token-1');
      },
      Secrets.of(['secret-token-1']),
      vi.fn(),
      context,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasAuthError);
    expect((error as BaasAuthError).message).toMatch(/^listPixKeys: .*failed.*nothing was sent$/);
    expect(((error as BaasAuthError).cause as Error).message).toBe('idp down, [REDACTED]');
  });

  it("a source's own BaasAuthError: its message inside, redacted, and the error itself as cause", async () => {
    const own = new BaasAuthError('token endpoint answered invalid_client for secret-token-1', NONE);
    const error = await resolveToken(
      async () => {
        throw own;
      },
      Secrets.of(['secret-token-1']),
      vi.fn(),
      context,
    ).catch((e: unknown) => e);
    expect((error as BaasAuthError).message).toMatch(/^listPixKeys: /);
    expect((error as BaasAuthError).message).toContain('invalid_client for [REDACTED]');
    expect((error as BaasAuthError).cause).toBe(own);
  });

  it('an unusable value: BaasAuthError naming the problem, nothing remembered', async () => {
    const remember = vi.fn();
    const error = await resolveToken(async () => '  ', Secrets.none, remember, context).catch((e: unknown) => e);
    expect((error as BaasAuthError).message).toMatch(/^listPixKeys: .*empty token.*was sent$/);
    expect(remember).not.toHaveBeenCalled();
  });
});
