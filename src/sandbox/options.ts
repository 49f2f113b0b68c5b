// `createSandbox`'s options checked and settled, before anything is built: an oversized or
// ill-formed sandbox allocates nothing.
import { countProblem, SANDBOX_TOKENS, totalProblem, ttlProblem } from './limits.js';
import { AS_GIVEN, checkOptions, type OptionRule, type OptionRules, within } from '../option-rules.js';
import type { SandboxOptions } from './sandbox.js';

export interface CheckedOptions {
  seed: string | number;
  clients: number;
  accountsPerClient: number;
  keysPerAccount: number;
  tokenTtlSeconds: number;
}

/** A rule of limits.ts (shared with the command line, which names the flag), in the words after the option. */
const sizeRule = (problem: (value: unknown, label: string) => string | undefined): OptionRule => ({
  check: (value) => problem(value, '')?.trimStart(),
  error: RangeError,
});

// Each option's rule, once: tsc fails here when SandboxOptions gains or loses one.
const RULES: OptionRules<SandboxOptions> = {
  seed: AS_GIVEN,
  clients: sizeRule((value, label) => countProblem('clients', value, label)),
  accountsPerClient: sizeRule((value, label) => countProblem('accountsPerClient', value, label)),
  keysPerAccount: sizeRule((value, label) => countProblem('keysPerAccount', value, label)),
  // Checked where the limiter and the faults are built (rate-limit.ts, faults.ts).
  rateLimit: AS_GIVEN,
  faults: within(Array.isArray, 'must be an array of faults'),
  tokenTtlSeconds: sizeRule(ttlProblem),
  faker: AS_GIVEN,
};

// The sandbox command's flags, written as options by someone who knows the command line first.
const COMMAND_LINE_NAMES = { accounts: 'accountsPerClient', keys: 'keysPerAccount', tokenTtl: 'tokenTtlSeconds' };

/** The sizes, seed and token lifetime; the rate limit and faults are checked where they are built. */
export function settle(options: SandboxOptions): CheckedOptions {
  checkOptions('createSandbox', options, RULES, { aliases: COMMAND_LINE_NAMES });
  const { clients = 1, accountsPerClient = 2, keysPerAccount = 5 } = options;
  const tooBig = totalProblem({ clients, accountsPerClient, keysPerAccount }, (name) => name);
  if (tooBig !== undefined) throw new RangeError(`createSandbox: ${tooBig}`);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? SANDBOX_TOKENS.defaultTtlSeconds;
  return { seed: options.seed ?? 'baas-pix-contract', clients, accountsPerClient, keysPerAccount, tokenTtlSeconds };
}
