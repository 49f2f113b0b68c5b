// What a batch client meets in the sandbox: faults on a share of the answers, drawn from the seed so a
// run can be repeated; the Retry-After of an injected 503 or 429, 0 included; a rate limit that a
// client pacing itself at the limit never hits, announced by the RateLimit fields the client reads.
// The scale case (100,000 accounts) is in batch-scale.matrix.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BaasApiError, createBaasClient } from '../../src/index.js';
import { parseRateLimit } from '../../src/logging/rate-limit.js';
import { createSandbox, type Fault, type Sandbox } from '../../src/sandbox/index.js';
import { refusalOf } from '../support/refusal.js';
import { answerOf, LIST, list, update } from './in-process.js';

afterEach(() => {
  vi.useRealTimers();
});

/** The message of what `run` throws, checked to be a RangeError. */
const refusal = (run: () => unknown): string => refusalOf(run, RangeError);

/** Which of `calls` list calls (no token: a 401 unless a fault answers first) got a 503. */
async function hits(sandbox: Sandbox, calls: number): Promise<number[]> {
  const hit: number[] = [];
  // Any other status, asserted once (an expect for each of 12,500 calls was 0.3 s of CPU).
  const other: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const response = await sandbox.fetch(LIST, { headers: { 'user-agent': 't/1' } });
    if (response.status === 503) hit.push(i);
    else if (response.status !== 401) other.push(response.status);
  }
  expect(other).toEqual([]);
  return hit;
}

const FIVE_PERCENT: Fault = { operation: '*', status: 503, share: 0.05 };

describe('faults by share', () => {
  it('hit about that share of the calls, the same ones for the same seed, others for another seed', async () => {
    const first = await hits(createSandbox({ seed: 'share', faults: [FIVE_PERCENT] }), 4_000);
    const again = await hits(createSandbox({ seed: 'share', faults: [FIVE_PERCENT] }), 4_000);
    const other = await hits(createSandbox({ seed: 'share-2', faults: [FIVE_PERCENT] }), 4_000);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // Counted once with this seed: 5 % of 4,000 is 200; a binomial's spread is about 14.
    expect(first.length).toBe(195);
    for (const run of [first, other]) expect(Math.abs(run.length - 200)).toBeLessThan(45);
    // Spread over the run, not bunched at its start.
    expect(first.filter((i) => i >= 2_000).length).toBeGreaterThan(60);
  });

  it('stay armed until reset(), which arms the ones given at creation again with their draws started over', async () => {
    const sandbox = createSandbox({ seed: 'share-reset', faults: [FIVE_PERCENT] });
    const before = await hits(sandbox, 500);
    sandbox.inject({ operation: 'listPixKeys', status: 503, share: 1 });
    expect((await hits(sandbox, 20)).length).toBe(20);
    sandbox.reset();
    expect(await hits(sandbox, 500)).toEqual(before);
  });

  it('come after the counted faults armed before them, and a share of 1 hits every call of its operation', async () => {
    const sandbox = createSandbox({ seed: 'share-order' });
    sandbox.inject({ operation: 'listPixKeys', status: 500, times: 2 });
    sandbox.inject({ operation: 'listPixKeys', status: 502, share: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await list(sandbox)).status);
    expect(statuses).toEqual([500, 500, 502, 502]);
    expect((await update(sandbox, { email: 'a@b.com' })).status).toBe(200);
  });

  it('refuse each ill-formed field with a RangeError naming it, at creation and in inject()', () => {
    const sandbox = createSandbox({ seed: 'share-bad' });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ share: 0 }, /^sandbox fault: share .*greater than 0 and at most 1$/],
      [{ share: -0.1 }, /share/],
      [{ share: 1.5 }, /share/],
      [{ share: Number.NaN }, /share/],
      [{ share: '0.5' }, /share/],
      [{ share: 0.5, times: 2 }, /times and share/],
      [{ retryAfterSeconds: -1 }, /^sandbox fault: retryAfterSeconds .*from 0 to 86,400$/],
      [{ retryAfterSeconds: 1.5 }, /retryAfterSeconds/],
      [{ retryAfterSeconds: 86_401 }, /retryAfterSeconds/],
      [{ status: 500, retryAfterSeconds: 1 }, /retryAfterSeconds .*429 or 503$/],
      [{ delayMs: 2 ** 31 }, /^sandbox fault: delayMs .*2147483647$/],
      [{ delayMs: -1 }, /delayMs/],
      [{ operation: 'listKeys' }, /^sandbox fault: operation .*listPixKeys/],
      [{ headers: { 'retry-after': 5 } }, /^sandbox fault: headers .*strings$/],
      [{ drop: 'yes' }, /^sandbox fault: drop .*boolean$/],
    ];
    for (const [fields, rule] of cases) {
      const fault = { operation: '*', status: 503, ...fields } as Fault;
      expect(
        refusal(() => sandbox.inject(fault)),
        JSON.stringify(fields),
      ).toMatch(rule);
      // At creation, the fault is named by its place among the options: faults[0].share.
      const atCreation = new RegExp(rule.source.replace(/^\^sandbox fault: /, '^createSandbox: faults\\[0\\]\\.'));
      expect(
        refusal(() => createSandbox({ faults: [fault] })),
        JSON.stringify(fields),
      ).toMatch(atCreation);
    }
    expect(refusal(() => sandbox.inject(null as unknown as Fault))).toMatch(/object/);
    expect(refusal(() => createSandbox({ faults: {} as unknown as Fault[] }))).toMatch(/^createSandbox: faults /);
    for (const fault of [
      { operation: '*', status: 503, share: 1 },
      { operation: '*', status: 503, share: Number.MIN_VALUE },
      { operation: '*', status: 429, retryAfterSeconds: 0 },
      { operation: '*', status: 503, retryAfterSeconds: 86_400 },
      { operation: '*', delayMs: 0 },
    ] as Fault[])
      expect(() => sandbox.inject(fault)).not.toThrow();
  });
});

describe('the Retry-After of an injected 503 or 429', () => {
  it('is retryAfterSeconds, 0 included; 30 without it, as before; a retry-after header given wins', async () => {
    const sandbox = createSandbox({ seed: 'retry-after' });
    const client = createBaasClient({
      baseUrl: 'https://x.test',
      token: sandbox.clients[0]!.token,
      fetch: sandbox.fetch,
      retry: false,
    });
    const retryAfterOf = async (fault: Omit<Fault, 'operation'>) => {
      sandbox.inject({ operation: 'listPixKeys', ...fault });
      const error = (await client.listPixKeys().catch((e: unknown) => e)) as BaasApiError;
      return [error.status, error.retryAfterMs];
    };
    expect(await retryAfterOf({ status: 503, retryAfterSeconds: 0 })).toEqual([503, 0]);
    expect(await retryAfterOf({ status: 503, retryAfterSeconds: 7 })).toEqual([503, 7_000]);
    expect(await retryAfterOf({ status: 429, retryAfterSeconds: 0 })).toEqual([429, 0]);
    expect(await retryAfterOf({ status: 503 })).toEqual([503, 30_000]);
    expect(await retryAfterOf({ status: 503, retryAfterSeconds: 0, headers: { 'retry-after': '2' } })).toEqual([
      503, 2_000,
    ]);
    sandbox.inject({ operation: '*', status: 503, share: 1, retryAfterSeconds: 0 });
    const shared = await answerOf(await list(sandbox));
    expect([shared.status, shared.headers['retry-after'], shared.body.status]).toEqual([503, '0', 503]);
  });
});

describe('the rate limit', () => {
  it('announces itself on 2xx and 4xx answers in RateLimit and RateLimit-Policy, which the client parses', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const sandbox = createSandbox({ seed: 'rl-fields', rateLimit: { requests: 3, windowMs: 2_000 } });
    const first = await list(sandbox);
    expect([first.status, first.headers.get('ratelimit'), first.headers.get('ratelimit-policy')]).toEqual([
      200,
      '"default";r=2;t=1',
      '"default";q=3;w=2',
    ]);
    expect(parseRateLimit(first.headers)).toEqual({
      source: 'ietf',
      policy: 'default',
      limit: 3,
      remaining: 2,
      resetSeconds: 1,
      windowSeconds: 2,
    });
    const invalid = await list(sandbox, '?limit=0');
    expect([invalid.status, parseRateLimit(invalid.headers)?.remaining]).toEqual([422, 1]);
    expect((await list(sandbox)).status).toBe(200);
    const refused = await list(sandbox);
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    expect(parseRateLimit(refused.headers)).toMatchObject({ limit: 3, remaining: 0, resetSeconds: 2 });
    // A refused request costs nothing: 2 s on, the bucket is full again.
    vi.advanceTimersByTime(2_000);
    expect(parseRateLimit((await list(sandbox)).headers)).toMatchObject({ remaining: 2 });
    // An unknown caller is not counted, and not told about anyone's limit.
    const unknown = await sandbox.fetch(LIST, { headers: { 'user-agent': 't/1', authorization: 'Bearer sbx_x' } });
    expect([unknown.status, unknown.headers.get('ratelimit')]).toEqual([401, null]);
    // Without a limit, no fields.
    expect((await list(createSandbox({ seed: 'rl-none' }))).headers.get('ratelimit')).toBeNull();
  });

  it('never refuses a client pacing itself at the limit, early or late by a little; a burst past it is refused', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const sandbox = createSandbox({ seed: 'rl-pace', rateLimit: { requests: 50 } });
    const statuses = new Map<number, number>();
    // 50 a second is one every 20 ms: here 19, 20 and 21 ms in turn, so that the 51st request comes
    // 999 ms after the first (a fixed window anchored there would refuse it), and so on over 20 s.
    const gaps = [19, 20, 21];
    for (let i = 0; i < 1_000; i += 1) {
      const status = (await list(sandbox)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      vi.advanceTimersByTime(gaps[i % 3]!);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1_000 });
    vi.advanceTimersByTime(1_000);
    const burst: number[] = [];
    for (let i = 0; i < 51; i += 1) burst.push((await list(sandbox)).status);
    expect(burst.filter((status) => status === 200)).toHaveLength(50);
    expect(burst.at(-1)).toBe(429);
  });
});
