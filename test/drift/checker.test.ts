// The drift checker's rules beyond the matrix: headers the contract requires, statuses it does not
// document, unparsable bodies, and rules that never carry the value.
import { describe, expect, it } from 'vitest';
import { describeProblem, loadDriftChecker } from '../../src/drift/index.js';

const checker = await loadDriftChecker();
const problemJson = 'application/problem+json';

describe('drift checker', () => {
  it('flags a 429 without its required Retry-After, and one that is not an integer', () => {
    expect(checker.check({ operationId: 'listPixKeys', status: 429, headers: {}, contentType: problemJson, body: {} })).toEqual([{ part: 'header', pointer: '/retry-after', rule: 'is required' }]);
    expect(checker.check({ operationId: 'listPixKeys', status: 429, headers: { 'Retry-After': 'soon' }, contentType: problemJson, body: {} })).toEqual([{ part: 'header', pointer: '/retry-after', rule: 'must be an integer' }]);
    expect(checker.check({ operationId: 'listPixKeys', status: 429, headers: new Headers({ 'Retry-After': '30' }), contentType: `${problemJson}; charset=utf-8`, body: {} })).toEqual([]);
  });

  it('flags a status the operation does not document', () => {
    const [problem] = checker.check({ operationId: 'listPixKeys', status: 404, headers: {}, contentType: problemJson, body: {} });
    expect(problem).toMatchObject({ part: 'status', pointer: '' });
    expect(problem!.rule).toMatch(/200, 400, 401/);
  });

  it('flags JSON that does not parse, and a body of the wrong shape for a problem', () => {
    expect(checker.check({ operationId: 'listPixKeys', status: 500, headers: {}, contentType: problemJson, bodyUnparsable: true })).toEqual([{ part: 'body', pointer: '', rule: 'must be valid JSON' }]);
    expect(checker.check({ operationId: 'listPixKeys', status: 500, headers: {}, contentType: problemJson, body: { status: 'ERROR' } })).toEqual([{ part: 'body', pointer: '/status', rule: 'must be an integer' }]);
  });

  it('never puts the value in a rule, and names an unknown operation', () => {
    const secret = '52998224725';
    const problems = checker.check({ operationId: 'updateNaturalPerson', status: 200, headers: {}, contentType: 'application/json', body: { secret, status: secret } });
    expect(problems.length).toBeGreaterThan(0);
    expect(JSON.stringify(problems)).not.toContain(secret);
    expect(problems.map(describeProblem).join('\n')).not.toContain(secret);
    expect(() => checker.check({ operationId: 'nope', status: 200, headers: {}, contentType: null })).toThrow(/no operation nope/);
  });

  it('is one shared instance, loaded once', async () => {
    expect(await loadDriftChecker()).toBe(checker);
    expect(checker.operations).toEqual(['updateNaturalPerson', 'listPixKeys']);
  });
});
