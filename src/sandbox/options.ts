// `createSandbox`'s options checked and settled, before anything is built: an oversized or
// ill-formed sandbox allocates nothing.
import { countProblem, SANDBOX_TOKENS, totalProblem, ttlProblem } from './limits.js';
import { checkOptions, isRecord, must, optionError, type OptionRule, type OptionRules } from '../option-rules.js';
import { isGivenFaker } from './faker.js';
import { faultRule } from './faults.js';
import { RATE_LIMIT_RULES } from './rate-limit.js';
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
  seed: must(
    (seed) => (typeof seed === 'string' && seed !== '') || Number.isFinite(seed),
    'must be a non-empty string or a finite number, e.g. seed: "my-test"',
  ),
  clients: sizeRule((value, label) => countProblem('clients', value, label)),
  accountsPerClient: sizeRule((value, label) => countProblem('accountsPerClient', value, label)),
  keysPerAccount: sizeRule((value, label) => countProblem('keysPerAccount', value, label)),
  // Its own declaration (rate-limit.ts), checked below as rateLimit.requests, rateLimit.windowMs.
  rateLimit: must(isRecord, 'must be an object, e.g. rateLimit: { requests: 10, windowMs: 1000 }'),
  // Each fault by the rules of faults.ts, named by its place: faults[0].share.
  faults: {
    check: (faults) => {
      if (!Array.isArray(faults)) return 'must be an array of faults, e.g. faults: [{ operation: "*", status: 503 }]';
      for (const [index, fault] of faults.entries()) {
        const wrong = faultRule(fault);
        if (wrong) return { at: `[${index}]${wrong.field ? `.${wrong.field}` : ''}`, rule: wrong.rule };
      }
      return undefined;
    },
    error: RangeError,
  },
  tokenTtlSeconds: sizeRule(ttlProblem),
  faker: must(isGivenFaker, "must be Faker's `faker` (import { faker } from '@faker-js/faker/locale/pt_BR')"),
};

// The sandbox command's flags, written as options by someone who knows the command line first.
const COMMAND_LINE_NAMES = { accounts: 'accountsPerClient', keys: 'keysPerAccount', tokenTtl: 'tokenTtlSeconds' };

/** The sizes, seed and token lifetime; the rate limit and faults are checked where they are built. */
export function settle(options: SandboxOptions): CheckedOptions {
  checkOptions('createSandbox', options, RULES, { aliases: COMMAND_LINE_NAMES });
  if (options.rateLimit !== undefined)
    checkOptions({ where: 'createSandbox', path: 'rateLimit' }, options.rateLimit, RATE_LIMIT_RULES);
  const { clients = 1, accountsPerClient = 2, keysPerAccount = 5 } = options;
  // The product of three options: named by the one that makes it too big, the rule saying all three.
  const tooBig = totalProblem({ clients, accountsPerClient, keysPerAccount }, (name) => name);
  if (tooBig !== undefined) {
    const [option, ...rule] = tooBig.split(' ');
    throw optionError({ where: 'createSandbox', option: option!, rule: rule.join(' ') }, RangeError);
  }
  const tokenTtlSeconds = options.tokenTtlSeconds ?? SANDBOX_TOKENS.defaultTtlSeconds;
  return { seed: options.seed ?? 'baas-pix-contract', clients, accountsPerClient, keysPerAccount, tokenTtlSeconds };
}
