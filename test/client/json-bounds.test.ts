// What the client keeps and walks of a provider's JSON (src/json-bounds.ts): a success body nested
// deeper than MAX_JSON_DEPTH is refused as a BaasResponseError (not a stack overflow downstream), and an
// BaasApiError keeps a bounded copy of a huge problem. Through the public entry with an injected fetch.
import { describe, expect, it } from 'vitest';
import { createBaasClient, exportKeys, BaasApiError, BaasResponseError } from '../../src/index.js';
import { boundedCopy, MAX_JSON_DEPTH, MAX_KEPT_ITEMS, MAX_KEPT_MEMBERS, tooDeepAt } from '../../src/json-bounds.js';
import { PAST_THE_STACK } from '../support/past-the-stack.js';

const answering = (status: number, body: string, type = 'application/json') =>
  createBaasClient({
    baseUrl: 'https://provider.test',
    token: 'tok',
    retry: false,
    fetch: async () => new Response(body, { status, headers: { 'content-type': type } }),
  });

/** Members and items far past what an error keeps of a problem: a hundred times the bound. */
const HUGE = 100;

/** A value `levels` containers deep: `[[…[]…]]`. */
const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const pageWithKey = (key: string) => `{"cursor":{"next":null},"data":[{"id":"x","key":${key}}]}`;

describe('the depth bound', () => {
  it('refuses a page whose key nests deeper than the stack can recurse, naming the bound, in the client and in exportKeys', async () => {
    const body = pageWithKey(nested(PAST_THE_STACK));
    const error = await answering(200, body)
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaasResponseError);
    expect((error as Error).message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    expect((error as BaasResponseError).problems).toEqual([
      {
        part: 'body',
        pointer: expect.stringMatching(/^\/data\/0\/key\//),
        rule: `must not nest deeper than ${MAX_JSON_DEPTH} levels`,
      },
    ]);
    const exported = await (async () => {
      for await (const _ of exportKeys(answering(200, body))) expect.unreachable();
    })().catch((e: unknown) => e);
    expect(exported).toBeInstanceOf(BaasResponseError);
  });

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    expect(tooDeepAt(JSON.parse(nested(MAX_JSON_DEPTH)))).toBeUndefined();
    expect(tooDeepAt(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe('/0'.repeat(MAX_JSON_DEPTH));
    expect(tooDeepAt({ 'a/b': { '~': JSON.parse(nested(MAX_JSON_DEPTH)) } })).toBe(
      `/a~1b/~0${'/0'.repeat(MAX_JSON_DEPTH - 2)}`,
    );
  });
});

describe('what a BaasApiError keeps of a huge problem', () => {
  it(`keeps ${MAX_KEPT_MEMBERS} members of a 422 with ${HUGE * MAX_KEPT_MEMBERS}, and ${MAX_KEPT_ITEMS} of ${HUGE * MAX_KEPT_ITEMS} violations`, async () => {
    const problem: Record<string, unknown> = { type: 'about:blank', status: 422, title: 'Invalid' };
    for (let i = 0; i < HUGE * MAX_KEPT_MEMBERS; i += 1) problem[`m${i}`] = i;
    const members = await answering(422, JSON.stringify(problem), 'application/problem+json')
      .listPixKeys()
      .catch((e: unknown) => e);
    expect(members).toBeInstanceOf(BaasApiError);
    expect(Object.keys((members as BaasApiError).problem!)).toHaveLength(MAX_KEPT_MEMBERS);
    expect((members as BaasApiError).problem).toMatchObject({ type: 'about:blank', status: 422, title: 'Invalid' });
    const violations = Array.from({ length: HUGE * MAX_KEPT_ITEMS }, (_, i) => ({ property: `/f${i}`, reason: 'bad' }));
    const listed = await answering(422, JSON.stringify({ title: 'Invalid', violations }), 'application/problem+json')
      .listPixKeys()
      .catch((e: unknown) => e);
    expect((listed as BaasApiError).problem!.violations).toHaveLength(MAX_KEPT_ITEMS);
  });

  it('copies without the call stack, drops what nests past the bound, and keeps __proto__ a plain member', () => {
    const deep = JSON.parse(`{"a":${nested(PAST_THE_STACK)}}`);
    const copy = boundedCopy(deep) as { a: unknown };
    expect(tooDeepAt(copy)).toBeUndefined();
    const proto = boundedCopy(JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
