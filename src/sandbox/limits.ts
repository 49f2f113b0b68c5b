// How big a sandbox may be, checked before anything is built: one place for `createSandbox` and the
// command line. A sandbox keeps every key's JSON in memory (about 40 MB per 100,000 keys, and about
// 2.6 KB per customer account, `npm run bench`), so the totals bound its memory: the largest allowed
// sandbox takes about 135 MB, well under 256 MB.

/** The largest sizes of a sandbox. Each count has its own bound, and so have the totals. */
export const SANDBOX_LIMITS = {
  /** API clients (tokens). */
  clients: 1_000,
  /** Customer accounts per client. */
  accountsPerClient: 1_000,
  /** PIX keys per account. */
  keysPerAccount: 100_000,
  /** Customer accounts in all: clients × accountsPerClient. */
  accounts: 10_000,
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
 * What is wrong with a size whose counts are each in range (see `countProblem`), or undefined. The
 * totals are products of at most three integers of at most 100,000, exact in a double.
 * `label` names an option as the caller's user knows it (`keysPerAccount`, `--keys`).
 */
export function totalProblem(size: SandboxSize, label: (option: SizeOption) => string): string | undefined {
  const accounts = size.clients * size.accountsPerClient;
  if (accounts > SANDBOX_LIMITS.accounts) {
    return `${label('clients')} × ${label('accountsPerClient')} (customer accounts in all) must be at most ${n(SANDBOX_LIMITS.accounts)}, got ${n(accounts)}`;
  }
  const keys = accounts * size.keysPerAccount;
  if (keys > SANDBOX_LIMITS.keys) {
    return `${label('clients')} × ${label('accountsPerClient')} × ${label('keysPerAccount')} (keys in all) must be at most ${n(SANDBOX_LIMITS.keys)}, got ${n(keys)}`;
  }
  return undefined;
}

/** What is wrong with one count, or undefined: an integer from its minimum to its limit. */
export function countProblem(option: SizeOption, value: unknown, label: string): string | undefined {
  const min = SANDBOX_MINIMUMS[option];
  const max = SANDBOX_LIMITS[option];
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  return `${label} must be an integer from ${min} to ${n(max)}, got ${typeof value === 'number' ? String(value) : `a ${typeof value}`}`;
}
