// verify's budget, in process with an injected fetch, clock and sleep: every request counts, the run
// stops at the request or time budget with a message naming it, reads (never writes) wait out
// Retry-After on 429/503 when the wait fits, and each answer comes back read and parsed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryAfterOf as retryAfterMs } from '../../src/transport/retry-after.js';
import { Budget, BudgetExhausted, type BudgetDeps } from '../../src/verify/budget.js';

const URL_ = 'http://127.0.0.1:9/v2/api/pix/keys';

/** Answers queued in order; each call records its URL and init. */
function scripted(answers: (() => Response)[], clock = { t: 0 }) {
  const calls: { url: string; init: RequestInit }[] = [];
  const sleeps: number[] = [];
  const deps: BudgetDeps = {
    fetch: async (url, init) => {
      calls.push({ url, init });
      const next = answers.shift();
      if (!next) throw new Error('no answer scripted');
      return next();
    },
    now: () => clock.t,
    wait: async (ms) => {
      sleeps.push(ms);
      clock.t += ms;
    },
  };
  return { deps, calls, sleeps, clock };
}

const answer =
  (status: number, headers: Record<string, string> = {}, body = '') =>
  () =>
    new Response(body || null, { status, headers });
const json = (status: number, value: unknown, extra: Record<string, string> = {}) =>
  answer(status, { 'content-type': 'application/json', ...extra }, JSON.stringify(value));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Budget: what it counts and when it stops', () => {
  it('counts each request and stops at the request budget with a BudgetExhausted naming it', async () => {
    const { deps, calls } = scripted([json(200, {}), json(200, {})]);
    const budget = new Budget(2, 60_000, 5_000, deps);
    await budget.send(URL_, { method: 'GET' });
    expect(budget.requestsUsed).toBe(1);
    await budget.send(URL_, { method: 'GET' });
    expect(budget.requestsUsed).toBe(2);
    const error = await budget.send(URL_, { method: 'GET' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExhausted);
    expect((error as Error).name).toBe('BudgetExhausted');
    expect((error as Error).message).toBe('request budget of 2 used up');
    expect(calls).toHaveLength(2);
    expect(budget.requestsUsed).toBe(2);
  });

  it('stops when the time budget is spent (exactly spent counts), naming it in seconds', async () => {
    const { deps, calls, clock } = scripted([json(200, {})]);
    clock.t = 1_000;
    const budget = new Budget(10, 1_500, 5_000, deps);
    clock.t = 2_499;
    expect(budget.elapsedMs).toBe(1_499);
    await budget.send(URL_, { method: 'GET' });
    clock.t = 2_500;
    const error = await budget.send(URL_, { method: 'GET' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExhausted);
    expect((error as Error).message).toBe('time budget of 1.5 s used up');
    expect(calls).toHaveLength(1);
    expect(budget.requestsUsed).toBe(1);
  });

  it('gives each request the per-request timeout, or what is left of the time budget when that is shorter', async () => {
    // Each request is one attempt of the transport, which arms one timer for it.
    const timer = vi.spyOn(globalThis, 'setTimeout');
    const { deps, calls, clock } = scripted([json(200, {}), json(200, {})]);
    const budget = new Budget(10, 10_000, 3_000, deps);
    await budget.send(URL_, { method: 'GET', headers: { accept: 'application/json' } });
    clock.t = 8_000;
    await budget.send(URL_, { method: 'GET' });
    expect(timer.mock.calls.map(([, ms]) => ms)).toEqual([3_000, 2_000]);
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
    expect(calls[0]!.init).toMatchObject({ method: 'GET', headers: { accept: 'application/json' } });
    expect(calls[0]!.url).toBe(URL_);
  });
});

describe('Budget: Retry-After', () => {
  it('"Retry-After: 1.5" is waited 1 500 ms before the read is sent again', async () => {
    const { deps, calls, sleeps } = scripted([answer(429, { 'retry-after': '1.5' }), json(200, {})]);
    const budget = new Budget(10, 60_000, 5_000, deps);
    const x = await budget.send(URL_, { method: 'GET' });
    expect(sleeps).toEqual([1_500]);
    expect(calls).toHaveLength(2);
    expect(x).toMatchObject({ status: 200, waitedOn: [429] });
  });

  it('a read answered 429 then 503 with Retry-After waits each out and is sent again; the answer lists what it waited on', async () => {
    const { deps, calls, sleeps } = scripted([
      answer(429, { 'retry-after': '2' }),
      answer(503, { 'retry-after': '1' }),
      json(200, { ok: true }),
    ]);
    const budget = new Budget(10, 60_000, 5_000, deps);
    const x = await budget.send(URL_, { method: 'GET' });
    expect(sleeps).toEqual([2_000, 1_000]);
    expect(calls).toHaveLength(3);
    expect(x).toMatchObject({ status: 200, body: { ok: true }, waitedOn: [429, 503] });
    expect(budget.requestsUsed).toBe(3);
    expect(budget.retriesAfterWait).toBe(2);
  });

  it.each([
    ['a write (PUT)', 'PUT', 503, { 'retry-after': '1' }],
    ['a write (POST)', 'POST', 429, { 'retry-after': '1' }],
    ['a read answered 500 with Retry-After', 'GET', 500, { 'retry-after': '1' }],
    ['a read answered 502 with Retry-After', 'GET', 502, { 'retry-after': '1' }],
    ['a read answered 429 without Retry-After', 'GET', 429, {}],
    ['a read answered 503 with an unreadable Retry-After', 'GET', 503, { 'retry-after': 'soon' }],
  ])('%s is answered as it came, never sent twice', async (_name, method, status, headers) => {
    const { deps, calls, sleeps } = scripted([answer(status, headers), json(200, {})]);
    const budget = new Budget(10, 60_000, 5_000, deps);
    const x = await budget.send(URL_, { method });
    expect(x.status).toBe(status);
    expect(x.waitedOn).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(budget.retriesAfterWait).toBe(0);
  });

  it('waits when time is left after the wait to send again; not when the wait would use up the time budget', async () => {
    let run = scripted([answer(429, { 'retry-after': '4' }), json(200, {})]);
    let budget = new Budget(10, 5_000, 5_000, run.deps);
    expect((await budget.send(URL_, { method: 'GET' })).status).toBe(200);
    expect(run.sleeps).toEqual([4_000]);

    // Waiting 5 s of a 5 s budget would leave nothing to send the read again with: the 429 is the answer.
    run = scripted([answer(429, { 'retry-after': '5' }), json(200, {})]);
    budget = new Budget(10, 5_000, 5_000, run.deps);
    expect((await budget.send(URL_, { method: 'GET' })).status).toBe(429);
    expect(run.sleeps).toEqual([]);
    expect(run.calls).toHaveLength(1);
  });

  it('does not wait when the request budget has no request left to send again', async () => {
    const { deps, calls, sleeps } = scripted([
      answer(429, { 'retry-after': '1' }),
      answer(429, { 'retry-after': '1' }),
      json(200, {}),
    ]);
    const budget = new Budget(2, 60_000, 5_000, deps);
    const x = await budget.send(URL_, { method: 'GET' });
    expect(x).toMatchObject({ status: 429, waitedOn: [429] });
    expect(calls).toHaveLength(2);
    expect(sleeps).toEqual([1_000]);
    expect(budget.retriesAfterWait).toBe(1);
  });
});

describe('Budget: the answer, read', () => {
  it.each([
    ['JSON', 'application/json', '{"a":[1]}', { a: [1] }, false],
    [
      'problem details with a charset',
      'application/problem+json; charset=utf-8',
      '{"status":401}',
      { status: 401 },
      false,
    ],
    ['JSON that does not parse', 'application/json', '{"a":', undefined, true],
    ['text', 'text/plain', 'not found', 'not found', false],
    ['an empty JSON answer', 'application/json', '', undefined, false],
  ])('%s', async (_name, contentType, text, body, bodyUnparsable) => {
    const { deps } = scripted([answer(200, { 'content-type': contentType, 'x-request-id': 'r-1' }, text)]);
    const x = await new Budget(1, 1_000, 1_000, deps).send(URL_, { method: 'GET' });
    expect(x).toEqual({ status: 200, headers: expect.any(Headers), contentType, body, bodyUnparsable, waitedOn: [] });
    expect(x.headers.get('x-request-id')).toBe('r-1');
  });

  it('an answer without a content type keeps its text and says so (null)', async () => {
    const { deps } = scripted([() => new Response(new TextEncoder().encode('{"a":1}'), { status: 200 })]);
    const x = await new Budget(1, 1_000, 1_000, deps).send(URL_, { method: 'GET' });
    expect(x.contentType).toBeNull();
    expect(x.body).toBe('{"a":1}');
    expect(x.bodyUnparsable).toBe(false);
  });

  it('an empty answer without a content type has no body', async () => {
    const { deps } = scripted([() => new Response(null, { status: 204 })]);
    const x = await new Budget(1, 1_000, 1_000, deps).send(URL_, { method: 'GET' });
    expect(x).toMatchObject({ status: 204, contentType: null, body: undefined, bodyUnparsable: false });
  });
});

describe('retryAfterMs', () => {
  const withRetryAfter = (value?: string) =>
    new Response(null, { status: 429, headers: value === undefined ? {} : { 'retry-after': value } });
  const NOW = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    ['seconds', '3', 3_000],
    ['zero seconds', '0', 0],
    ['seconds with spaces around', ' 7 ', 7_000],
    ['a decimal fraction of seconds (not a date in 2001)', '1.5', 1_500],
    ['a signed number (not a date)', '-5', undefined],
    ['an HTTP date 90 s ahead', 'Thu, 01 Jan 2026 00:01:30 GMT', 90_000],
    ['an HTTP date in the past', 'Wed, 31 Dec 2025 23:59:00 GMT', 0],
    ['no header', undefined, undefined],
    ['an empty header', '', undefined],
    ['only spaces', '   ', undefined],
    ['words', 'later', undefined],
    ['a word before seconds', 'x5', undefined],
    ['a word after seconds', '5x', undefined],
  ])('%s', (_name, value, expected) => {
    expect(retryAfterMs(withRetryAfter(value), NOW)).toBe(expected);
  });

  it('reads an HTTP date against the clock by default', () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    expect(retryAfterMs(withRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT'))).toBe(10_000);
  });
});
