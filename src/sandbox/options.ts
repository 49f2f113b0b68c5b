// `createSandbox`'s options checked and settled, before anything is built: an oversized or
// ill-formed sandbox allocates nothing.
import { countProblem, SANDBOX_TOKENS, type SizeOption, totalProblem, ttlProblem } from './limits.js';
import type { SandboxOptions } from './sandbox.js';
import { misspeltOptionProblem } from '../words.js';

export interface CheckedOptions {
  seed: string | number;
  clients: number;
  accountsPerClient: number;
  keysPerAccount: number;
  tokenTtlSeconds: number;
}

const count = (name: SizeOption, value: number | undefined, fallback: number): number => {
  const n = value ?? fallback;
  const wrong = countProblem(name, n, name);
  if (wrong !== undefined) throw new RangeError(`createSandbox: ${wrong}`);
  return n;
};

// Every option's name, once: tsc fails here when SandboxOptions gains or loses one.
const OPTION_NAMES = Object.keys({
  seed: true,
  clients: true,
  accountsPerClient: true,
  keysPerAccount: true,
  rateLimit: true,
  faults: true,
  tokenTtlSeconds: true,
  faker: true,
} satisfies Record<keyof SandboxOptions, true>);

// The sandbox command's flags, written as options by someone who knows the command line first.
const COMMAND_LINE_NAMES = { accounts: 'accountsPerClient', keys: 'keysPerAccount', tokenTtl: 'tokenTtlSeconds' };

/** The sizes, seed and token lifetime; the rate limit and faults are checked where they are built. */
export function settle(options: SandboxOptions): CheckedOptions {
  const unknown = misspeltOptionProblem('createSandbox', options, OPTION_NAMES, COMMAND_LINE_NAMES);
  if (unknown !== undefined) throw new TypeError(unknown);
  const clients = count('clients', options.clients, 1);
  const accountsPerClient = count('accountsPerClient', options.accountsPerClient, 2);
  const keysPerAccount = count('keysPerAccount', options.keysPerAccount, 5);
  const tooBig = totalProblem({ clients, accountsPerClient, keysPerAccount }, (name) => name);
  if (tooBig !== undefined) throw new RangeError(`createSandbox: ${tooBig}`);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? SANDBOX_TOKENS.defaultTtlSeconds;
  const badTtl = ttlProblem(tokenTtlSeconds, 'tokenTtlSeconds');
  if (badTtl !== undefined) throw new RangeError(`createSandbox: ${badTtl}`);
  if (options.faults !== undefined && !Array.isArray(options.faults))
    throw new RangeError('createSandbox: faults must be an array of faults');
  return { seed: options.seed ?? 'baas-pix-contract', clients, accountsPerClient, keysPerAccount, tokenTtlSeconds };
}
