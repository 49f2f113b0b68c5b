// How big a sandbox may be, checked before anything is built: one place for `createSandbox` and the
// command line. The bound is on memory: a sandbox keeps every key's JSON (about 370 bytes a key, in
// one buffer per client) and every customer account's data (about 1.5 KB an account), so the totals
// of keys and of accounts bound it. The largest allowed sandbox, 100,000 accounts with 2 keys each
// (200,000 keys), measured 330 MB of RSS for the whole Node 20 process (90 MB of it Node and Faker
// before the sandbox; the sandbox's own heap and buffers 167 MB, `npm run bench`), and 50,000
// accounts with 5 keys each (250,000 keys) 290 MB.

/** The largest sizes of a sandbox. Each count has its own bound, and so have the totals. */
export const SANDBOX_LIMITS = {
  /** API clients (tokens). */
  clients: 1_000,
  /** Customer accounts per client. */
  accountsPerClient: 100_000,
  /** PIX keys per account. */
  keysPerAccount: 100_000,
  /** Customer accounts in all: clients × accountsPerClient. */
  accounts: 100_000,
  /** PIX keys in all: clients × accountsPerClient × keysPerAccount. */
  keys: 250_000,
} as const;

/** The smallest value of each count. */
export const SANDBOX_MINIMUMS = { clients: 1, accountsPerClient: 1, keysPerAccount: 0 } as const;

export type SizeOption = keyof typeof SANDBOX_MINIMUMS;

export interface SandboxSize {
  clients: number;
  accountsPerClient: number;
  keysPerAccount: number;
}

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * What kind of value was refused, or which bound it broke (`a string`, `a fraction`, `one above 1,000`):
 * never the value. An options error never shows one (src/option-rules.ts): it is the caller's, and an
 * echoed number would even be masked where it is shown when it has 11 digits (`got 10000000000`,
 * shown `got *********00`).
 */
function refusedKind(value: unknown, min: number, max: number): string {
  if (typeof value !== 'number') return `a ${value === null ? 'null' : typeof value}`;
  if (!Number.isFinite(value)) return 'a number that is not finite';
  if (!Number.isInteger(value)) return 'a fraction';
  return value < min ? `one below ${n(min)}` : `one above ${n(max)}`;
}

/**
 * What is wrong with a size whose counts are each in range (see `countProblem`), or undefined. The
 * totals are products of at most three integers of at most 100,000, exact in a double.
 * `label` names an option as the caller's user knows it (`keysPerAccount`, `--keys`).
 */
export function totalProblem(size: SandboxSize, label: (option: SizeOption) => string): string | undefined {
  const accounts = size.clients * size.accountsPerClient;
  if (accounts > SANDBOX_LIMITS.accounts) {
    return `${label('clients')} × ${label('accountsPerClient')} (customer accounts in all) must be at most ${n(SANDBOX_LIMITS.accounts)}: the counts given make more`;
  }
  const keys = accounts * size.keysPerAccount;
  if (keys > SANDBOX_LIMITS.keys) {
    return `${label('clients')} × ${label('accountsPerClient')} × ${label('keysPerAccount')} (keys in all) must be at most ${n(SANDBOX_LIMITS.keys)}: the counts given make more`;
  }
  return undefined;
}

/** What is wrong with one count, or undefined: an integer from its minimum to its limit. */
export function countProblem(option: SizeOption, value: unknown, label: string): string | undefined {
  const min = SANDBOX_MINIMUMS[option];
  const max = SANDBOX_LIMITS[option];
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  return `${label} must be an integer from ${min} to ${n(max)}, got ${refusedKind(value, min, max)}`;
}

/**
 * The tokens the sandbox's token endpoint (`POST /oauth/token`) issues. They live `tokenTtlSeconds`
 * (default 5 minutes, at most 24 hours, the longest `clientCredentials` keeps a token); each client
 * keeps at most `livePerClient` of them, the oldest dropped first, so a client asking again and again
 * cannot grow the sandbox's memory.
 */
export const SANDBOX_TOKENS = {
  /** The token endpoint's path, answered on any host: `https://sandbox.baas.test/oauth/token` in process. */
  path: '/oauth/token',
  /** `expires_in` of an issued token, in seconds, when `tokenTtlSeconds` is not given. */
  defaultTtlSeconds: 300,
  /** The largest `tokenTtlSeconds`. */
  maxTtlSeconds: 86_400,
  /** Issued tokens kept per client; a new one past it drops the oldest (which then gets a 401). */
  livePerClient: 16,
} as const;

/** What is wrong with a token lifetime, or undefined: an integer from 1 to the maximum, in seconds. */
export function ttlProblem(value: unknown, label: string): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= SANDBOX_TOKENS.maxTtlSeconds)
    return undefined;
  return `${label} must be a whole number of seconds from 1 to ${n(SANDBOX_TOKENS.maxTtlSeconds)}, got ${refusedKind(value, 1, SANDBOX_TOKENS.maxTtlSeconds)}`;
}
