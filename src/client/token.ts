// The token source's answer, made safe to send: a failure of the source and a value that is not
// a usable token both become a BaasAuthError before anything is sent, naming the problem, never the value.
import { BaasAuthError, type ErrorContext } from '../errors.js';
import type { Secrets } from '../redact.js';
import { tokenTextProblem } from '../token-text.js';

/**
 * A fixed token, or a function called before each attempt. A function may also have `invalidate`
 * (clientCredentials has): the client calls it with the token an API refused (401), then gets a new
 * one and repeats the call once; and `secrets`, values the client masks in everything it shows.
 */
export type TokenSource = string | TokenFunction;
/** A `token` given as a function: called before each attempt, with `invalidate` and `secrets` when it has them. */
export type TokenFunction = (() => string | Promise<string>) & {
  /** Drops `token`, which an API refused (401); the client then asks for a new one and repeats the call once. */
  invalidate?: (token?: string) => void;
  /** Values the client masks in everything it shows (errors, events, logs, spans). */
  secrets?: () => string[];
};

/** Why `value` cannot be a bearer token, or undefined when it can. */
export function tokenProblem(value: unknown): string | undefined {
  if (typeof value !== 'string')
    return `the token source gave ${value === undefined ? 'undefined' : `a ${typeof value}`}, not a string`;
  if (value.trim() === '') return 'the token source gave an empty token';
  // A line break (CR/LF would split the Authorization header), another control character, or "Bearer ".
  const headerValue = tokenTextProblem(value);
  if (headerValue !== undefined) return `the token source gave a token that ${headerValue}`;
  return undefined;
}

/** Resolves the token for one attempt; `remember` learns it so errors can mask it. */
export async function resolveToken(
  source: TokenSource,
  secrets: Secrets,
  remember: (token: string) => void,
  context: () => ErrorContext,
): Promise<string> {
  let value: unknown;
  try {
    value = typeof source === 'function' ? await source() : source;
  } catch (error) {
    // A BaasAuthError (clientCredentials' BaasTokenError) is redacted already and keeps its fields as cause;
    // its message says what the token endpoint answered.
    if (error instanceof BaasAuthError)
      throw new BaasAuthError(`the token source failed (${secrets.text(error.message)}); nothing was sent`, context(), {
        cause: error,
      });
    throw new BaasAuthError('the token source failed; nothing was sent', context(), {
      cause: secrets.cause(error),
    });
  }
  const problem = tokenProblem(value);
  if (problem) throw new BaasAuthError(`${problem}; nothing was sent`, context());
  remember(value as string);
  return value as string;
}
