// The `sandbox` command's flags as createSandbox's options, each checked before the sandbox's code is
// loaded: a bad value is a usage error naming the flag and its rule (exit 2), and nothing is built.
// The flags are declared here, each with the option it sets (`sets`); the one table from option to
// flag (`OPTION_FLAGS`) is made from those declarations, and so is the one from a fault's fields to
// the words of `--faults` (`FAULT_PARTS`): a refusal of the sandbox's own (its `option` and `rule`,
// as data) is said with the flag's words, never by rewriting its message.
import { type Fault, faultRule } from '../sandbox/faults.js';
// The limits alone (no Faker, no server).
import {
  SANDBOX_LIMITS,
  SANDBOX_MINIMUMS,
  SANDBOX_TOKENS,
  type SizeOption,
  totalProblem,
  ttlProblem,
} from '../sandbox/limits.js';
import type { SandboxOptions } from '../sandbox/sandbox.js';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../sandbox/problems.js';
import { type Flag, UsageError } from './command.js';
import { n } from '../words.js';

export { n };

export const DEFAULT_SEED = 'baas-pix-contract';
export const DEFAULTS: Record<SizeOption, number> = { clients: 2, accountsPerClient: 2, keysPerAccount: 5 };
/** The largest `--rate-limit`, in requests per second per client. */
export const MAX_RATE_LIMIT = 1_000_000;
/** The `Retry-After` of an injected 429 or 503 without `retry-after-seconds=`: the sandbox's own, in seconds. */
export const DEFAULT_FAULT_RETRY_AFTER = DEFAULT_RETRY_AFTER_SECONDS;
/** The RSS measured for the largest sandbox (src/sandbox/limits.ts), as the help and the README say it. */
export const LARGEST_RSS = '330 MB';

/**
 * The parts of one `--faults` item, in the order written (`503:0.05:retry-after-seconds=0`): the
 * field of a `Fault` each gives, how the grammar writes it, and how a refusal names it.
 */
const FAULT_PARTS = [
  { option: 'status', grammar: 'STATUS', said: 'the status' },
  { option: 'share', grammar: 'SHARE', said: 'the share' },
  { option: 'retryAfterSeconds', grammar: '[:retry-after-seconds=N]', said: 'retry-after-seconds' },
] as const satisfies readonly { option: keyof Fault; grammar: string; said: string }[];
export const FAULTS_GRAMMAR = FAULT_PARTS.map((part) => part.grammar)
  .join(':')
  .replace(':[', '[');

type SandboxFlag = Flag & { sets: Exclude<keyof SandboxOptions, 'faker'> };

export const SANDBOX_FLAGS = {
  seed: {
    type: 'string',
    value: 'S',
    sets: 'seed',
    help: [`same seed, same data, byte for byte (default "${DEFAULT_SEED}")`],
  },
  clients: {
    type: 'string',
    sets: 'clients',
    value: 'N',
    help: [`API clients, one token each (default ${n(DEFAULTS.clients)}, at most ${n(SANDBOX_LIMITS.clients)})`],
  },
  accounts: {
    type: 'string',
    sets: 'accountsPerClient',
    value: 'N',
    help: [
      `customer accounts per client (default ${n(DEFAULTS.accountsPerClient)}, at most ${n(SANDBOX_LIMITS.accountsPerClient)})`,
    ],
  },
  keys: {
    type: 'string',
    sets: 'keysPerAccount',
    value: 'N',
    help: [
      `PIX keys per account (default ${n(DEFAULTS.keysPerAccount)}, one of each type; 0 to ${n(SANDBOX_LIMITS.keysPerAccount)});`,
      `in all at most ${n(SANDBOX_LIMITS.accounts)} accounts (clients × accounts) and`,
      `${n(SANDBOX_LIMITS.keys)} keys (clients × accounts × keys), ${LARGEST_RSS} of RSS`,
      'measured at the largest; for batch work, --keys 0',
    ],
  },
  'token-ttl-seconds': {
    type: 'string',
    sets: 'tokenTtlSeconds',
    value: 'N',
    help: [
      `lifetime in seconds of the tokens ${SANDBOX_TOKENS.path} issues (default ${SANDBOX_TOKENS.defaultTtlSeconds},`,
      `at most ${n(SANDBOX_TOKENS.maxTtlSeconds)}); an expired one gets a 401 on the API; the static tokens`,
      'never expire',
    ],
  },
  'rate-limit': {
    type: 'string',
    sets: 'rateLimit',
    value: 'N',
    help: [
      `requests per second per client (default none, at most ${n(MAX_RATE_LIMIT)}):`,
      'N at once, then N a second; past it 429 with Retry-After; RateLimit fields',
      'on its answers',
    ],
  },
  faults: {
    type: 'string',
    sets: 'faults',
    value: 'LIST',
    help: [
      "faults on a share of the API's answers (default none): a comma-separated",
      `list of ${FAULTS_GRAMMAR}, SHARE above 0 and at most 1,`,
      `drawn from the seed; retry-after-seconds (0 to 86,400, default ${DEFAULT_FAULT_RETRY_AFTER}) for a 429`,
      'or 503 only. E.g. --faults 503:0.05:retry-after-seconds=0,429:0.01',
    ],
  },
} as const satisfies Record<string, SandboxFlag>;

/** createSandbox's option → the flag that gives it (`accountsPerClient` → `--accounts`), from the declarations. */
export const OPTION_FLAGS = Object.fromEntries(
  Object.entries(SANDBOX_FLAGS).map(([name, flag]) => [flag.sets, `--${name}`]),
) as Record<SandboxFlag['sets'], string>;

/** The size flags by option, for the limits' messages. */
export const FLAGS: Record<SizeOption, string> = {
  clients: OPTION_FLAGS.clients,
  accountsPerClient: OPTION_FLAGS.accountsPerClient,
  keysPerAccount: OPTION_FLAGS.keysPerAccount,
};

export interface SandboxFlags {
  seed?: string;
  clients?: string;
  accounts?: string;
  keys?: string;
  'token-ttl-seconds'?: string;
  'rate-limit'?: string;
  faults?: string;
}

/** What the command builds: createSandbox's options, all checked. */
export interface SandboxSettings {
  seed: string;
  clients: number;
  accountsPerClient: number;
  keysPerAccount: number;
  tokenTtlSeconds: number;
  /** Requests per second per client; undefined for no limit. */
  rateLimit: number | undefined;
  /** Faults on a share of the API's answers, in the order given. */
  faults: Fault[];
}

function count(option: SizeOption, raw: string | undefined): number {
  if (raw === undefined) return DEFAULTS[option];
  const min = SANDBOX_MINIMUMS[option];
  const max = SANDBOX_LIMITS[option];
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`${FLAGS[option]} must be a whole number from ${n(min)} to ${n(max)}, got "${raw}"`);
  return Number(raw);
}

function tokenTtl(raw: string | undefined): number {
  if (raw === undefined) return SANDBOX_TOKENS.defaultTtlSeconds;
  if (!/^\d+$/.test(raw) || ttlProblem(Number(raw), OPTION_FLAGS.tokenTtlSeconds) !== undefined) {
    throw new UsageError(
      `${OPTION_FLAGS.tokenTtlSeconds} must be a whole number of seconds from 1 to ${n(SANDBOX_TOKENS.maxTtlSeconds)}, got "${raw}"`,
    );
  }
  return Number(raw);
}

function rateLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_RATE_LIMIT)
    throw new UsageError(
      `${OPTION_FLAGS.rateLimit} must be a whole number of requests per second from 1 to ${n(MAX_RATE_LIMIT)}, got "${raw}"`,
    );
  return Number(raw);
}

/** One fault of `--faults`: `503:0.05`, `429:0.01:retry-after-seconds=0`. */
function fault(item: string): Fault {
  const parts = /^(\d{1,3}):(\d*\.?\d+)(?::retry-after-seconds=(\d{1,6}))?$/.exec(item);
  if (!parts)
    throw new UsageError(
      `${OPTION_FLAGS.faults} must be a comma-separated list of ${FAULTS_GRAMMAR}, e.g. 503:0.05:retry-after-seconds=0, got "${item}"`,
    );
  const out: Fault = { operation: '*', status: Number(parts[1]), share: Number(parts[2]) };
  if (parts[3] !== undefined) out.retryAfterSeconds = Number(parts[3]);
  // The rules of a fault are the sandbox's own (faultRule): its field, said in the words of --faults.
  const problem = faultRule(out);
  if (problem !== undefined) {
    const said = FAULT_PARTS.find((part) => part.option === problem.field)?.said ?? problem.field ?? 'the fault';
    throw new UsageError(`${OPTION_FLAGS.faults} "${item}": ${said} ${problem.rule}`);
  }
  return out;
}

export function sandboxSettings(values: SandboxFlags): SandboxSettings {
  const settings: SandboxSettings = {
    seed: values.seed ?? DEFAULT_SEED,
    clients: count('clients', values.clients),
    accountsPerClient: count('accountsPerClient', values.accounts),
    keysPerAccount: count('keysPerAccount', values.keys),
    tokenTtlSeconds: tokenTtl(values['token-ttl-seconds']),
    rateLimit: rateLimit(values['rate-limit']),
    faults: values.faults === undefined ? [] : values.faults.split(',').map(fault),
  };
  const tooBig = totalProblem(settings, (option) => FLAGS[option]);
  if (tooBig !== undefined) throw new UsageError(tooBig);
  return settings;
}
