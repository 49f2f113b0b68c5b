// Response validation walks a bounded amount of any answer: never more items of a list than one past
// the contract's largest maxItems, and at most MAX_DRIFT_PROBLEMS problems, then one saying how many
// more. A hostile page of 30,000 bad keys took 17 s and gave 90,001 problems before these bounds.
import { describe, expect, it } from 'vitest';
import { loadDriftChecker } from '../../src/drift/index.js';
import { MAX_DRIFT_PROBLEMS, MAX_ITEMS_CHECKED } from '../../src/drift/check.js';
import { ARRAY_ITEMS_MAX } from '../../src/generated/bounds.js';
import { createBaasClient, BaasResponseError } from '../../src/index.js';
import { exampleValue } from '../support/fixtures.js';

const KEY = exampleValue<{ data: Record<string, unknown>[] }>('FirstPage').data[0]!;
const BAD_KEY = { ...KEY, id: 9, key: 5, key_type: 7, key_status: [] };

/** A list whose element reads are counted (what a validator walks). */
function countedList(length: number, item: unknown) {
  const reads = new Set<number>();
  const list = new Proxy(
    Array.from({ length }, () => item),
    {
      get(target, name, receiver) {
        if (typeof name === 'string' && /^[0-9]+$/.test(name)) reads.add(Number(name));
        return Reflect.get(target, name, receiver);
      },
    },
  );
  return { list, reads };
}

describe('response validation bounds', () => {
  it(`walks at most ${MAX_ITEMS_CHECKED} items of a 30,000-item page, and still reports maxItems`, async () => {
    const checker = await loadDriftChecker();
    const { list, reads } = countedList(30_000, BAD_KEY);
    const problems = checker.check({
      operationId: 'listPixKeys',
      status: 200,
      headers: {},
      contentType: 'application/json',
      body: { cursor: { next: null }, data: list },
    });
    expect(reads.size).toBeLessThanOrEqual(MAX_ITEMS_CHECKED);
    expect(Math.max(...reads)).toBeLessThan(MAX_ITEMS_CHECKED);
    expect(problems).toContainEqual({
      part: 'body',
      pointer: '/data',
      rule: expect.stringContaining(`${ARRAY_ITEMS_MAX}`),
    });
  });

  it(`reports at most ${MAX_DRIFT_PROBLEMS} problems, then how many more`, async () => {
    const checker = await loadDriftChecker();
    const problems = checker.check({
      operationId: 'listPixKeys',
      status: 200,
      headers: {},
      contentType: 'application/json',
      body: { cursor: { next: null }, data: Array.from({ length: 150 }, () => BAD_KEY) },
    });
    expect(problems).toHaveLength(MAX_DRIFT_PROBLEMS + 1);
    expect(problems.at(-1)).toEqual({
      part: 'body',
      pointer: '',
      rule: expect.stringMatching(
        /^and [0-9]+ more problem\(s\), not listed \(at most MAX_DRIFT_PROBLEMS, 100, are\)$/,
      ),
    });
  });

  it("a client with validateResponses: 'throw' ends a 30,000 bad-key page with a bounded BaasResponseError", async () => {
    const body = JSON.stringify({ cursor: { next: null }, data: Array.from({ length: 30_000 }, () => BAD_KEY) });
    const client = createBaasClient({
      baseUrl: 'https://provider.test',
      token: 'tok',
      validateResponses: 'throw',
      fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
    });
    const error = await client.listPixKeys().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as BaasResponseError).problems!.length).toBeLessThanOrEqual(MAX_DRIFT_PROBLEMS + 1);
  });
});
