// The `sandbox` command's flags as createSandbox's options, each checked before the sandbox's code is
// loaded: a bad value is a usage error naming the flag and its rule (exit 2), and nothing is built.
import { faultProblem, type Fault } from '../sandbox/faults.js';
// The limits alone (no Faker, no server).
import {
  SANDBOX_LIMITS,
  SANDBOX_MINIMUMS,
  SANDBOX_TOKENS,
  type SizeOption,
  totalProblem,
  ttlProblem,
} from '../sandbox/limits.js';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../sandbox/problems.js';
import { UsageError } from './command.js';

export const DEFAULT_SEED = 'baas-pix-contract';
export const FLAGS: Record<SizeOption, string> = {
  clients: '--clients',
  accountsPerClient: '--accounts',
  keysPerAccount: '--keys',
};
export const DEFAULTS: Record<SizeOption, number> = { clients: 2, accountsPerClient: 2, keysPerAccount: 5 };
/** The largest `--rate-limit`, in requests per second per client. */
export const MAX_RATE_LIMIT = 1_000_000;
/** The `Retry-After` of an injected 429 or 503 without `retry-after-seconds=`: the sandbox's own, in seconds. */
export const DEFAULT_FAULT_RETRY_AFTER = DEFAULT_RETRY_AFTER_SECONDS;
export const FAULTS_GRAMMAR = 'STATUS:SHARE[:retry-after-seconds=N]';

import { n } from '../words.js';

export { n };

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
  if (!/^\d+$/.test(raw) || ttlProblem(Number(raw), '--token-ttl-seconds') !== undefined) {
    throw new UsageError(
      `--token-ttl-seconds must be a whole number of seconds from 1 to ${n(SANDBOX_TOKENS.maxTtlSeconds)}, got "${raw}"`,
    );
  }
  return Number(raw);
}

function rateLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_RATE_LIMIT)
    throw new UsageError(
      `--rate-limit must be a whole number of requests per second from 1 to ${n(MAX_RATE_LIMIT)}, got "${raw}"`,
    );
  return Number(raw);
}

/** One fault of `--faults`: `503:0.05`, `429:0.01:retry-after-seconds=0`. */
function fault(item: string): Fault {
  const parts = /^(\d{1,3}):(\d*\.?\d+)(?::retry-after-seconds=(\d{1,6}))?$/.exec(item);
  if (!parts)
    throw new UsageError(
      `--faults must be a comma-separated list of ${FAULTS_GRAMMAR}, e.g. 503:0.05:retry-after-seconds=0, got "${item}"`,
    );
  const out: Fault = { operation: '*', status: Number(parts[1]), share: Number(parts[2]) };
  if (parts[3] !== undefined) out.retryAfterSeconds = Number(parts[3]);
  // The rules of a fault are the sandbox's own (faultProblem), said here with the flag's words for its fields.
  const problem = faultProblem(out);
  if (problem !== undefined)
    throw new UsageError(
      `--faults "${item}": ${problem.replace(/^\w+/, (field) => FAULT_FIELD_WORDS[field] ?? field)}`,
    );
  return out;
}

/** How `--faults` names the fields of a fault (`503:0.05:retry-after-seconds=0`). */
const FAULT_FIELD_WORDS: Readonly<Record<string, string>> = {
  status: 'the status',
  share: 'the share',
  retryAfterSeconds: 'retry-after-seconds',
};

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
