// Reads a response's rate-limit header fields. The contract documents the IETF `RateLimit` and
// `RateLimit-Policy` fields (draft-ietf-httpapi-ratelimit-headers, structured-field lists such as
// `"default";r=49;t=42` and `"default";q=100;w=60`); since the provider publishes neither, the common
// `X-RateLimit-Limit/-Remaining/-Reset` (and the draft's older `RateLimit-Limit/-Remaining/-Reset`)
// are read too.

/** What an answer's rate-limit header fields say: the quota, what is left, when it resets. */
export interface RateLimitInfo {
  /** Which header fields it came from. */
  source: 'ietf' | 'separate-fields';
  /** The policy name the server reported, when it named one. */
  policy?: string;
  /** Requests allowed per window (`q`, or `…-Limit`). */
  limit?: number;
  /** Requests left in the current window (`r`, or `…-Remaining`). */
  remaining?: number;
  /** Seconds until the quota resets (`t`, or `…-Reset`). */
  resetSeconds?: number;
  /** Length of the window in seconds (`w`). */
  windowSeconds?: number;
}

interface HeaderSource {
  get(name: string): string | null;
}

// Bounds the work done on a header a server controls.
const MAX_FIELD_LENGTH = 4096;
// An X-RateLimit-Reset above this is an epoch time (GitHub's style), not seconds to wait.
const EPOCH_THRESHOLD = 1_000_000_000;

interface SfItem {
  value: string;
  params: Map<string, string | true>;
}

/** A lenient reader of an RFC 8941 list of items with parameters; no inner lists. */
export function parseStructuredList(field: string): SfItem[] {
  if (field.length > MAX_FIELD_LENGTH) return [];
  const items: SfItem[] = [];
  let i = 0;
  const skip = () => {
    while (field[i] === ' ' || field[i] === '\t') i += 1;
  };
  const bare = (): string => {
    if (field[i] === '"') {
      let out = '';
      for (i += 1; i < field.length && field[i] !== '"'; i += 1) {
        if (field[i] === '\\') i += 1;
        out += field[i] ?? '';
      }
      i += 1;
      return out;
    }
    const start = i;
    while (i < field.length && !/[;,\s]/.test(field[i]!)) i += 1;
    return field.slice(start, i);
  };
  while (i < field.length) {
    skip();
    const value = bare();
    const params = new Map<string, string | true>();
    skip();
    while (field[i] === ';') {
      i += 1;
      skip();
      const start = i;
      while (i < field.length && /[a-z0-9_\-.*]/.test(field[i]!)) i += 1;
      const key = field.slice(start, i);
      if (field[i] === '=') {
        i += 1;
        params.set(key, bare());
      } else params.set(key, true);
      skip();
    }
    if (value || params.size) items.push({ value, params });
    // Skip to the next member; anything unparseable up to it is ignored.
    while (i < field.length && field[i] !== ',') i += 1;
    i += 1;
  }
  return items;
}

const count = (value: string | true | null | undefined): number | undefined => {
  if (typeof value !== 'string' || !/^\s*[0-9]{1,15}\s*$/.test(value)) return undefined;
  return Number(value);
};

type Loose<T> = { [K in keyof T]: T[K] | undefined };
/** Drops the fields that came out undefined. */
const defined = (object: Loose<RateLimitInfo>): RateLimitInfo =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as unknown as RateLimitInfo;

function fromIetf(rateLimit: string | null, policy: string | null): RateLimitInfo | undefined {
  if (!rateLimit) return undefined;
  const items = parseStructuredList(rateLimit)
    .map((item) => ({
      policy: item.value,
      remaining: count(item.params.get('r')),
      resetSeconds: count(item.params.get('t')),
    }))
    .filter((item) => item.remaining !== undefined || item.resetSeconds !== undefined);
  if (items.length === 0) return undefined;
  // Several policies: the one closest to running out is the one that matters.
  const tightest = items.reduce((a, b) => ((b.remaining ?? Infinity) < (a.remaining ?? Infinity) ? b : a));
  const policies = policy ? parseStructuredList(policy) : [];
  const match = policies.find((p) => p.value === tightest.policy) ?? (policies.length === 1 ? policies[0] : undefined);
  return defined({
    source: 'ietf',
    policy: tightest.policy || undefined,
    limit: count(match?.params.get('q')),
    remaining: tightest.remaining,
    resetSeconds: tightest.resetSeconds,
    windowSeconds: count(match?.params.get('w')),
  });
}

function fromSeparateFields(headers: HeaderSource, nowMs: number): RateLimitInfo | undefined {
  for (const prefix of ['x-ratelimit-', 'ratelimit-', 'x-rate-limit-']) {
    const limit = count(headers.get(`${prefix}limit`));
    const remaining = count(headers.get(`${prefix}remaining`));
    let resetSeconds = count(headers.get(`${prefix}reset`));
    if (limit === undefined && remaining === undefined && resetSeconds === undefined) continue;
    if (resetSeconds !== undefined && resetSeconds > EPOCH_THRESHOLD)
      resetSeconds = Math.max(0, Math.ceil(resetSeconds - nowMs / 1000));
    return defined({ source: 'separate-fields', limit, remaining, resetSeconds });
  }
  return undefined;
}

/** The rate-limit state a response reports, or undefined when it reports none (or nothing readable). */
export function parseRateLimit(headers: HeaderSource, nowMs: number = Date.now()): RateLimitInfo | undefined {
  return fromIetf(headers.get('ratelimit'), headers.get('ratelimit-policy')) ?? fromSeparateFields(headers, nowMs);
}
