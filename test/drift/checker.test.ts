// The drift checker's rules beyond the matrix: headers the contract requires, statuses it does not
// document, unparsable bodies, and rules that never carry the value.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeProblem, driftMessage, loadDriftChecker } from '../../src/drift/index.js';

const checker = await loadDriftChecker();
const ajvUcs2length = (
  createRequire(import.meta.url)('ajv/dist/runtime/ucs2length') as { default: (s: string) => number }
).default;
const problemJson = 'application/problem+json';

describe('drift checker', () => {
  it('flags a 429 without its required Retry-After, and one that is not an integer', () => {
    expect(
      checker.check({ operationId: 'listPixKeys', status: 429, headers: {}, contentType: problemJson, body: {} }),
    ).toEqual([{ part: 'header', pointer: '/retry-after', rule: 'is required' }]);
    expect(
      checker.check({
        operationId: 'listPixKeys',
        status: 429,
        headers: { 'Retry-After': 'soon' },
        contentType: problemJson,
        body: {},
      }),
    ).toEqual([{ part: 'header', pointer: '/retry-after', rule: 'must be an integer' }]);
    expect(
      checker.check({
        operationId: 'listPixKeys',
        status: 429,
        headers: new Headers({ 'Retry-After': '30' }),
        contentType: `${problemJson}; charset=utf-8`,
        body: {},
      }),
    ).toEqual([]);
  });

  it('flags a status the operation does not document', () => {
    const [problem] = checker.check({
      operationId: 'listPixKeys',
      status: 404,
      headers: {},
      contentType: problemJson,
      body: {},
    });
    expect(problem).toMatchObject({ part: 'status', pointer: '' });
    expect(problem!.rule).toMatch(/200, 400, 401/);
  });

  it('flags JSON that does not parse, and a body of the wrong shape for a problem', () => {
    expect(
      checker.check({
        operationId: 'listPixKeys',
        status: 500,
        headers: {},
        contentType: problemJson,
        bodyUnparsable: true,
      }),
    ).toEqual([{ part: 'body', pointer: '', rule: 'must be valid JSON' }]);
    expect(
      checker.check({
        operationId: 'listPixKeys',
        status: 500,
        headers: {},
        contentType: problemJson,
        body: { status: 'ERROR' },
      }),
    ).toEqual([{ part: 'body', pointer: '/status', rule: 'must be an integer' }]);
  });

  it('never puts the value in a rule, and names an unknown operation', () => {
    const secret = '52998224725';
    const problems = checker.check({
      operationId: 'updateNaturalPerson',
      status: 200,
      headers: {},
      contentType: 'application/json',
      body: { secret, status: secret },
    });
    expect(problems.length).toBeGreaterThan(0);
    expect(JSON.stringify(problems)).not.toContain(secret);
    expect(problems.map(describeProblem).join('\n')).not.toContain(secret);
    expect(() => checker.check({ operationId: 'nope', status: 200, headers: {}, contentType: null })).toThrow(
      /no operation nope/,
    );
  });

  it('is one shared instance, loaded once', async () => {
    expect(await loadDriftChecker()).toBe(checker);
    expect(checker.operations).toEqual(['updateNaturalPerson', 'listPixKeys']);
  });
});

describe('drift checker: sampling and string lengths', () => {
  const spec = JSON.parse(readFileSync(new URL('../../src/generated/openapi.json', import.meta.url), 'utf8'));
  const record = spec.components.examples.FirstPage.value.data[0];

  it('with sampleItems checks only the first N items of a list, keeps their pointers, and leaves the body untouched', () => {
    const data = Array.from({ length: 30 }, () => structuredClone(record));
    delete data[2].key_status;
    delete data[25].key_status;
    const body = { cursor: { next: null }, data };
    const response = { operationId: 'listPixKeys', status: 200, headers: {}, contentType: 'application/json', body };
    expect(checker.check(response).map((p) => p.pointer)).toEqual(['/data/2/key_status', '/data/25/key_status']);
    expect(checker.check(response, { sampleItems: 10 }).map((p) => p.pointer)).toEqual(['/data/2/key_status']);
    expect(body.data).toHaveLength(30);
    // The envelope is always checked in full.
    expect(checker.check({ ...response, body: { data } }, { sampleItems: 1 }).map((p) => p.pointer)).toEqual([
      '/cursor',
    ]);
  });

  it('counts string lengths in code points exactly as Ajv does (the generated helper is a faster copy)', async () => {
    const generated = await readFile(new URL('../../src/generated/response-validators.js', import.meta.url), 'utf8');
    const source = /const func1 = \((function ucs2length[\s\S]*?\n})\)/.exec(generated)?.[1];
    expect(source).toBeDefined();
    const fast = new Function(`return (${source})`)() as (s: string) => number;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffff })).map((codes) => String.fromCharCode(...codes)),
        (text) => fast(text) === ajvUcs2length(text),
      ),
      { seed: 13, numRuns: 2000 },
    );
    expect(fast('😀a')).toBe(2);
  });
});

describe('driftMessage', () => {
  it('names the operation, status and first five problems, and counts the rest', () => {
    const problems = Array.from({ length: 7 }, (_, i) => ({
      part: 'body' as const,
      pointer: `/data/${i}/key_status`,
      rule: 'is required',
    }));
    expect(driftMessage({ operationId: 'listPixKeys', status: 200, problems })).toBe(
      'listPixKeys 200 drifted from the contract: body/data/0/key_status is required; body/data/1/key_status is required; body/data/2/key_status is required; body/data/3/key_status is required; body/data/4/key_status is required (and 2 more)',
    );
  });
});
