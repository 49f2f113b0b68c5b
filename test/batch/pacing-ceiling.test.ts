// A provider's rate-limit policy past the package's ceiling (MAX_PACING_GAP_MS between two requests)
// ends the batch with a BaasResponseError naming the bound: never a stall of days, never a timer's
// RangeError. Through the public entry, with an injected fetch answering 429 with the policy.
import { describe, expect, it } from 'vitest';
import { createBaasClient, exportKeys, BaasResponseError, updateMany } from '../../src/index.js';
import { MAX_PACING_GAP_MS, Pacing } from '../../src/batch/pacing.js';

function provider(policy: string) {
  let requests = 0;
  const fetch = async (): Promise<Response> => {
    requests += 1;
    return new Response(JSON.stringify({ type: 'about:blank', status: 429, title: 'Too many requests' }), {
      status: 429,
      headers: {
        'content-type': 'application/problem+json',
        'ratelimit-policy': policy,
        ratelimit: '"default";r=0;t=30',
      },
    });
  };
  return {
    client: createBaasClient({ baseUrl: 'https://provider.test', token: 'tok', fetch }),
    requests: () => requests,
  };
}

const ITEMS = Array.from({ length: 20 }, () => ({
  account: '12345678',
  documentNumber: '52998224725',
  body: { socialName: 'Maria' },
}));

describe.each([
  ['one request in 20 days', '"default";q=1;w=1728000'],
  ['one request a year (a wait no timer holds)', '"default";q=1;w=31536000'],
  ['one request in 61 s', '"default";q=1;w=61'],
])('a stated policy of %s', (_name, policy) => {
  it('ends updateMany with a BaasResponseError naming the ceiling, after the answers on the wire', async () => {
    const { client, requests } = provider(policy);
    const run = updateMany(client, ITEMS, { concurrency: 2 });
    const results: unknown[] = [];
    const error = await (async () => {
      for await (const result of run) results.push(result);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).message).toContain('MAX_PACING_GAP_MS');
    expect((error as BaasResponseError).message).not.toMatch(/RangeError|\*{5}/);
    expect((error as BaasResponseError).problems).toEqual([
      { part: 'header', pointer: '/ratelimit-policy', rule: expect.stringContaining('at least one request per 60 s') },
    ]);
    // Nothing more was sent once the policy was read: at most the two requests already on the wire.
    expect(requests()).toBeLessThanOrEqual(2);
    expect(run.progress().started).toBeLessThan(ITEMS.length);
  });

  it('ends exportKeys with the same error', async () => {
    const { client, requests } = provider(policy);
    const error = await (async () => {
      for await (const _ of exportKeys(client)) expect.unreachable();
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as Error).message).toContain('MAX_PACING_GAP_MS');
    expect(requests()).toBe(1);
  });
});

describe('the ceiling itself', () => {
  it(`is ${MAX_PACING_GAP_MS} ms: a policy of exactly one request per minute is taken, one past it refused`, () => {
    const pacing = new Pacing({ rate: undefined, limiter: undefined });
    expect(() => pacing.learn({ source: 'ietf', limit: 1, windowSeconds: 60 })).not.toThrow();
    expect(pacing.discoveredLimit).toBe(1 / 60);
    expect(() => pacing.learn({ source: 'ietf', limit: 1, windowSeconds: 60.001 })).toThrow(BaasResponseError);
    expect(() => pacing.learn({ source: 'ietf', limit: 2, windowSeconds: 121 })).toThrow(/2 request\(s\) per 121 s/);
  });
});
