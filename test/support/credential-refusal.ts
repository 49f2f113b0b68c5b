// The command line's refusal of its credential flags, as the tests read it: the message of the
// CredentialError that credentialsFrom (src/cli/connection/credentials.ts) throws for these flags and
// this environment. Anything else thrown, or nothing, fails the test.
import { expect } from 'vitest';
import { CredentialError, type CredentialFlags, credentialsFrom } from '../../src/cli/connection/credentials.js';
import { thrownBy } from './refusal.js';

/** The message of the CredentialError that `credentialsFrom(flags, env)` throws. */
export function credentialRefusal(flags: CredentialFlags, env: Record<string, string> = {}): string {
  const error = thrownBy(() => credentialsFrom(flags, env), CredentialError);
  expect(error.name).toBe('CredentialError');
  return error.message;
}
