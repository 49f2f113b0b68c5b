// checkResponse over a small contract of its own (validators that report what they are told to),
// so that each rule of the check shows on its own: which documented response applies, how header
// values are typed, which media types count, the fast path, sampling, and how problems are named.
import { describe, expect, it } from 'vitest';
import {
  checkResponse,
  documentedResponse,
  isJsonMediaType,
  mediaTypeOf,
  type ResponseContract,
} from '../../src/drift/check.js';
import type { DocumentedResponse } from '../../src/generated/response-validators.js';
import type { GeneratedValidator, GeneratedValidatorError } from '../../src/generated/validators.js';

type Rule = (data: unknown) => GeneratedValidatorError[];
const error = (
  instancePath: string,
  keyword: string,
  params: Record<string, unknown> = {},
): GeneratedValidatorError => ({ instancePath, schemaPath: `#/${keyword}`, keyword, params });

/** A validator that fails with the errors `rule` returns, and remembers what it saw. */
function validator(rule: Rule): GeneratedValidator & { seen: unknown[] } {
  const seen: unknown[] = [];
  const validate = Object.assign(
    (data: unknown) => {
      seen.push(data);
      const errors = rule(data);
      validate.errors = errors.length ? errors : null;
      return errors.length === 0;
    },
    { errors: null as GeneratedValidatorError[] | null, seen },
  );
  return validate;
}
const pass = () => validator(() => []);
const ruleOf = (e: GeneratedValidatorError) => `breaks ${e.keyword}`;

function documented(parts: Partial<DocumentedResponse> = {}): DocumentedResponse {
  const headers = parts.headers ?? pass();
  return {
    contentTypes: {},
    fastContentTypes: {},
    headers,
    fastHeaders: headers,
    requiredHeaders: [],
    headerTypes: {},
    ...parts,
  };
}

describe('mediaTypeOf and isJsonMediaType', () => {
  it.each([
    [null, null],
    [undefined, null],
    ['', null],
    [' ; charset=utf-8', null],
    [' Application/Problem+JSON ; charset=utf-8', 'application/problem+json'],
    ['text/csv', 'text/csv'],
  ])('%o is %o', (header, type) => expect(mediaTypeOf(header)).toBe(type));

  it.each([
    ['application/json', true],
    ['application/problem+json', true],
    ['application/vnd.acme.v2+json', true],
    [null, false],
    ['text/json', false],
    ['application/json-seq', false],
    ['application/jsonp', false],
    ['application/a+jsonx', false],
    ['x application/a+json', false],
    ['application/a+json; x', false],
    ['application/+json', false],
    ['/a+json', false],
  ])('%o is JSON: %o', (type, json) => expect(isJsonMediaType(type)).toBe(json));
});

describe('documentedResponse', () => {
  const exact = documented();
  const range = documented();
  const fallback = documented();
  const contract: ResponseContract = { op: { '200': exact, '4XX': range, default: fallback }, bare: { '200': exact } };

  it('takes the exact status, then its range, then default; nothing for an unknown operation or status', () => {
    expect(documentedResponse(contract, 'op', 200)).toBe(exact);
    expect(documentedResponse(contract, 'op', 404)).toBe(range);
    expect(documentedResponse(contract, 'op', 503)).toBe(fallback);
    expect(documentedResponse(contract, 'bare', 201)).toBeUndefined();
    expect(documentedResponse(contract, 'nope', 200)).toBeUndefined();
  });
});

describe('checkResponse', () => {
  const observed = { operationId: 'op', status: 200, headers: {}, contentType: 'application/json' };

  it('names the documented statuses of an undocumented one, in the contract order', () => {
    const contract: ResponseContract = {
      op: { '200': documented(), '422': documented(), default: documented() },
      other: { '404': documented() },
    };
    expect(
      checkResponse({ op: { '200': documented(), '422': documented() } }, ruleOf, { ...observed, status: 500 }),
    ).toEqual([{ part: 'status', pointer: '', rule: 'must be one of the documented statuses 200, 422' }]);
    expect(checkResponse(contract, ruleOf, { ...observed, status: 500 })).toEqual([]);
    expect(() => checkResponse(contract, ruleOf, { ...observed, operationId: 'missing' })).toThrow(
      'no operation missing in the contract',
    );
  });

  it('types a header as a number only when the contract says so and the value is a plain decimal', () => {
    const headers = validator(() => []);
    const contract: ResponseContract = {
      op: {
        '200': documented({
          headers,
          fastHeaders: headers,
          headerTypes: { 'retry-after': 'integer', ratio: 'number', neg: 'integer', odd: 'integer' },
        }),
      },
    };
    checkResponse(contract, ruleOf, {
      ...observed,
      headers: { 'Retry-After': ' 30 ', Ratio: '1.25', Neg: '-2', Odd: '3e2', 'X-Count': '7', Absent: undefined },
    });
    checkResponse(contract, ruleOf, {
      ...observed,
      headers: new Headers({ 'Retry-After': 'soon', 'X-Request-Id': 'r-1' }),
    });
    checkResponse(contract, ruleOf, {
      ...observed,
      headers: { 'retry-after': 'x30', ratio: '1.', neg: '2x', odd: '.5' },
    });
    checkResponse(contract, ruleOf, {
      ...observed,
      headers: { 'retry-after': '\t30\n', 'x-count': 7 as unknown as string },
    });
    expect(headers.seen).toStrictEqual([
      { 'retry-after': 30, ratio: 1.25, neg: -2, odd: '3e2', 'x-count': '7' },
      { 'retry-after': 'soon', 'x-request-id': 'r-1' },
      { 'retry-after': 'x30', ratio: '1.', neg: '2x', odd: '.5' },
      { 'retry-after': 30, 'x-count': 7 },
    ]);
  });

  it('reports header problems with their pointer, once each, and a missing header under its own name', () => {
    const headers = validator(() => [
      error('', 'required', { missingProperty: 'retry-after' }),
      error('', 'required', { missingProperty: 'retry-after' }),
      error('/x~1y', 'pattern'),
    ]);
    const contract: ResponseContract = { op: { '200': documented({ headers, fastHeaders: headers }) } };
    expect(checkResponse(contract, ruleOf, observed)).toEqual([
      { part: 'header', pointer: '/retry-after', rule: 'breaks required' },
      { part: 'header', pointer: '/x~1y', rule: 'breaks pattern' },
    ]);
  });

  it('escapes "~" and "/" in the name of a missing member', () => {
    const body = validator(() => [error('/data', 'required', { missingProperty: 'a/b~c' })]);
    const contract: ResponseContract = {
      op: {
        '200': documented({
          contentTypes: { 'application/json': body },
          fastContentTypes: { 'application/json': null },
        }),
      },
    };
    expect(checkResponse(contract, ruleOf, { ...observed, body: {} })).toEqual([
      { part: 'body', pointer: '/data/a~1b~0c', rule: 'breaks required' },
    ]);
  });

  it('keeps the same rule at different pointers and different rules at the same pointer', () => {
    const body = validator(() => [
      error('/a', 'type'),
      error('/b', 'type'),
      error('/a', 'pattern'),
      error('/a', 'type'),
    ]);
    const contract: ResponseContract = {
      op: { '200': documented({ contentTypes: { 'application/json': body }, fastContentTypes: {} }) },
    };
    expect(checkResponse(contract, ruleOf, { ...observed, body: {} }).map((p) => `${p.pointer} ${p.rule}`)).toEqual([
      '/a breaks type',
      '/b breaks type',
      '/a breaks pattern',
    ]);
  });

  it('a response with no documented body: only its headers are checked', () => {
    const headers = validator(() => [error('/etag', 'pattern')]);
    const contract: ResponseContract = { op: { '204': documented({ headers, fastHeaders: headers }) } };
    expect(
      checkResponse(contract, ruleOf, { ...observed, status: 204, contentType: 'text/html', body: '<html>' }),
    ).toEqual([{ part: 'header', pointer: '/etag', rule: 'breaks pattern' }]);
  });

  it('an undocumented or missing content type is one problem after the header problems, and the body is not checked', () => {
    const headers = validator(() => [error('/etag', 'pattern')]);
    const body = validator(() => [error('', 'type')]);
    const contract: ResponseContract = {
      op: {
        '200': documented({
          headers,
          fastHeaders: headers,
          contentTypes: { 'application/json': body, 'application/problem+json': body },
          fastContentTypes: {},
        }),
      },
    };
    const rule = 'must be application/json or application/problem+json';
    expect(checkResponse(contract, ruleOf, { ...observed, contentType: 'text/plain', body: 'x' })).toEqual([
      { part: 'header', pointer: '/etag', rule: 'breaks pattern' },
      { part: 'content-type', pointer: '', rule },
    ]);
    expect(checkResponse(contract, ruleOf, { ...observed, contentType: null, body: 'x' })).toEqual([
      { part: 'header', pointer: '/etag', rule: 'breaks pattern' },
      { part: 'content-type', pointer: '', rule },
    ]);
    expect(body.seen).toEqual([]);
  });

  it('a body that did not parse is one problem naming the media type, and is not validated', () => {
    const body = validator(() => [error('', 'type')]);
    const contract: ResponseContract = {
      op: { '200': documented({ contentTypes: { 'application/json': body, 'text/csv': body }, fastContentTypes: {} }) },
    };
    expect(checkResponse(contract, ruleOf, { ...observed, bodyUnparsable: true })).toEqual([
      { part: 'body', pointer: '', rule: 'must be valid JSON' },
    ]);
    expect(checkResponse(contract, ruleOf, { ...observed, contentType: 'text/csv', bodyUnparsable: true })).toEqual([
      { part: 'body', pointer: '', rule: 'must be valid text/csv' },
    ]);
    expect(checkResponse(contract, ruleOf, { ...observed, bodyUnparsable: false, body: 1 })).toEqual([
      { part: 'body', pointer: '', rule: 'breaks type' },
    ]);
    expect(body.seen).toEqual([1]);
  });

  it('a documented media type without a schema accepts any body', () => {
    const contract: ResponseContract = {
      op: { '200': documented({ contentTypes: { 'text/csv': null }, fastContentTypes: { 'text/csv': null } }) },
    };
    expect(checkResponse(contract, ruleOf, { ...observed, contentType: 'text/csv', body: 'a,b' })).toEqual([]);
  });

  it('the fast check answers for what it accepts; what it rejects goes to the full one, whose answer stands', () => {
    const full = validator((data) => ((data as { bad?: boolean }).bad ? [error('/bad', 'const')] : []));
    const fast = validator((data) => ((data as { fast?: string }).fast === 'no' ? [error('', 'fast')] : []));
    const contract: ResponseContract = {
      op: {
        '200': documented({
          contentTypes: { 'application/json': full },
          fastContentTypes: { 'application/json': fast },
        }),
      },
    };
    // Accepted by the fast check: the full one is never asked (even though it would object).
    expect(checkResponse(contract, ruleOf, { ...observed, body: { bad: true } })).toEqual([]);
    expect(full.seen).toEqual([]);
    // Rejected by the fast check but accepted by the full one: no problem.
    expect(checkResponse(contract, ruleOf, { ...observed, body: { fast: 'no' } })).toEqual([]);
    // Rejected by both: the full one's problems.
    expect(checkResponse(contract, ruleOf, { ...observed, body: { fast: 'no', bad: true } })).toEqual([
      { part: 'body', pointer: '/bad', rule: 'breaks const' },
    ]);
    // fullCheckOnly skips the fast check.
    expect(checkResponse(contract, ruleOf, { ...observed, body: { bad: true } }, { fullCheckOnly: true })).toEqual([
      { part: 'body', pointer: '/bad', rule: 'breaks const' },
    ]);
    expect(fast.seen).toHaveLength(3);
  });

  describe('sampleItems', () => {
    const seenWith = (body: unknown, sampleItems?: number) => {
      const full = pass();
      const contract: ResponseContract = {
        op: { '200': documented({ contentTypes: { 'application/json': full }, fastContentTypes: {} }) },
      };
      checkResponse(contract, ruleOf, { ...observed, body }, sampleItems === undefined ? {} : { sampleItems });
      return full.seen[0];
    };

    it('cuts each top-level list longer than N, leaves shorter lists and nested ones, and copies', () => {
      const body = { data: [1, 2, 3], keep: [1, 2], nested: { list: [1, 2, 3, 4] }, name: 'x' };
      const seen = seenWith(body, 2);
      expect(seen).toEqual({ data: [1, 2], keep: [1, 2], nested: { list: [1, 2, 3, 4] }, name: 'x' });
      expect(body.data).toEqual([1, 2, 3]);
      // A list of exactly N items, and a body with nothing to cut, are checked as they are.
      const exact = { data: [1, 2] };
      expect(seenWith(exact, 2)).toBe(exact);
    });

    it('cuts a body that is itself a list, and passes other bodies through', () => {
      expect(seenWith([1, 2, 3], 1)).toEqual([1]);
      const list = [1, 2];
      expect(seenWith(list, 2)).toBe(list);
      expect(seenWith(null, 1)).toBeNull();
      expect(seenWith('text', 1)).toBe('text');
      const body = { data: [1, 2, 3] };
      expect(seenWith(body)).toBe(body);
      expect(seenWith(body, 0)).toEqual({ data: [] });
    });
  });
});
