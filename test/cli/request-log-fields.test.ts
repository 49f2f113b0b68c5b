// What a request-log line may carry: a 422's field at fault only when the contract defines it (read
// from the bundled spec here too, independently of the code), the same name from Prism's form and
// the sandbox's; control characters escaped; CPF spellings and bearer credentials masked in the path.
import { describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD } from '../../src/cli/contract-fields.js';
import { faultyFields, formatLine } from '../../src/cli/request-log.js';
import { escapeControls, redactPath } from '../../src/redact.js';
import { deref, spec } from '../support/spec.js';
import { VALID_CPF } from '../support/fixtures.js';

/** Every body field of every operation, as [segments], walked from the spec with $refs resolved. */
function bodyFields(): string[][] {
  const out: string[][] = [];
  const walk = (schema: any, at: string[], seen: Set<unknown>): void => {
    const node = deref(schema);
    if (!node || seen.has(node)) return;
    for (const [name, inner] of Object.entries<any>(node.properties ?? {})) {
      out.push([...at, name]);
      walk(inner, [...at, name], new Set([...seen, node]));
    }
  };
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values<any>(item)) {
      for (const media of Object.values<any>(deref(operation.requestBody)?.content ?? {}))
        walk(media.schema, [], new Set());
    }
  }
  return out;
}

const parameterNames = (): { name: string; in: string }[] =>
  Object.values(spec.paths).flatMap((item) =>
    Object.values<any>(item).flatMap((operation) => (operation.parameters ?? []).map((p: unknown) => deref(p))),
  );

const prism = (location: unknown[], message = 'must match pattern') => ({
  'sl-violations': JSON.stringify([{ location, message }]),
});
const sandbox = (...properties: string[]) =>
  JSON.stringify({ violations: properties.map((property) => ({ property, reason: 'r' })) });

describe('a field at fault is named only when the contract defines it', () => {
  const fields = bodyFields();
  const parameters = parameterNames();

  it('the spec has body fields at more than one depth and parameters in the query and a header', () => {
    expect(fields.some((f) => f.length === 1) && fields.some((f) => f.length === 2)).toBe(true);
    expect(new Set(parameters.map((p) => p.in))).toEqual(new Set(['query', 'header']));
  });

  it.each(bodyFields().map((segments) => [`/${segments.join('/')}`, segments]))(
    'body field %s: its pointer, from Prism and from the sandbox',
    (pointer, segments) => {
      expect(faultyFields(prism(['request', 'body', ...segments]), '')).toEqual([pointer]);
      // A missing property: Prism names it in the message, on its parent.
      expect(
        faultyFields(
          prism(['request', 'body', ...segments.slice(0, -1)], `must have required property '${segments.at(-1)}'`),
          '',
        ),
      ).toEqual([pointer]);
      expect(faultyFields({}, sandbox(pointer))).toEqual([pointer]);
    },
  );

  it.each(parameterNames().map((p) => [p.name, p.in]))(
    "parameter %s (in %s): the spec's spelling, from Prism's lower case and from the sandbox",
    (name, where) => {
      expect(faultyFields(prism(['request', where, name.toLowerCase()]), '')).toEqual([name]);
      expect(
        faultyFields(prism(['request', where], `must have required property '${name.toLowerCase()}'`), ''),
      ).toEqual([name]);
      expect(faultyFields({}, sandbox(name))).toEqual([name]);
    },
  );

  it('the whole body is "body" in both forms', () => {
    expect(faultyFields(prism(['request', 'body'], 'must NOT have fewer than 1 properties'), '')).toEqual(['body']);
    expect(faultyFields({}, sandbox('body'))).toEqual(['body']);
  });

  it.each([
    ['a CPF', VALID_CPF],
    ['a formatted CPF', '529.982.247-25'],
    ['a bearer token', 'Bearer sbx_0123456789abcdef'],
    ['a forged line', 'x\nGET /injected 200 (1 ms)'],
    ['terminal colours', '\u001b[31mred'],
    ['a name of the prototype', '__proto__'],
  ])('%s as a member name is "(unknown field)" in every form', (_what, name) => {
    expect(
      faultyFields(prism(['request', 'body'], `must NOT have additional properties; found '${name}'`), ''),
    ).toEqual([UNKNOWN_FIELD]);
    expect(faultyFields(prism(['request', 'body', 'address', name]), '')).toEqual([UNKNOWN_FIELD]);
    expect(faultyFields(prism(['request', 'query', name]), '')).toEqual([UNKNOWN_FIELD]);
    expect(
      faultyFields({}, sandbox(`/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, name, `/address/${name}`)),
    ).toEqual([UNKNOWN_FIELD]);
  });

  it('a field of the contract under the wrong parent, or a parameter name in the body: "(unknown field)"', () => {
    expect(faultyFields(prism(['request', 'body', 'city']), '')).toEqual([UNKNOWN_FIELD]);
    expect(faultyFields(prism(['request', 'body', 'address', 'address']), '')).toEqual([UNKNOWN_FIELD]);
    expect(faultyFields({}, sandbox('/DocumentNumber', '/address/email', 'email'))).toEqual([UNKNOWN_FIELD]);
  });

  it('a parameter with more to its path, a location without a place, or a place we do not know: "(unknown field)"', () => {
    expect(faultyFields(prism(['request', 'query', 'limit', 'x']), '')).toEqual([UNKNOWN_FIELD]);
    expect(faultyFields(prism(['request', 'query']), '')).toEqual([UNKNOWN_FIELD]);
    expect(faultyFields(prism(['request', 'path', 'limit']), '')).toEqual([UNKNOWN_FIELD]);
    expect(faultyFields(prism(['response', 'body', 'email']), '')).toEqual([UNKNOWN_FIELD]);
    expect(
      faultyFields({ 'sl-violations': JSON.stringify([{ message: "must have required property 'Account'" }]) }, ''),
    ).toEqual([UNKNOWN_FIELD]);
  });
});

describe('control characters are escaped in every part of a line', () => {
  it.each([
    ['\n', '\\n'],
    ['\r', '\\r'],
    ['\t', '\\t'],
    ['\u001b', '\\x1b'],
    ['\u0000', '\\x00'],
    ['\u007f', '\\x7f'],
    ['\u0085', '\\x85'],
    ['\u2028', '\\u2028'],
    ['\u202e', '\\u202e'],
    // The backslash is no control: kept as it is, so text escaped once is never escaped twice.
    ['\\', '\\'],
  ])('%j is written %s', (char, escaped) => {
    expect(escapeControls(`a${char}b`)).toBe(`a${escaped}b`);
  });

  it('in the method, the path and the fields', () => {
    const line = formatLine('GE\u001bT', redactPath('/a\nGET /injected 200 (1 ms)'), 422, 1, ['/x\u001b[31m']);
    expect(line).toBe('GE\\x1bT /a\\nGET /injected 200 (1 ms) HTTP 422 in 1 ms, fields: /x\\x1b[31m');
    expect(line).not.toMatch(/[\p{Cc}]/u);
  });
});

describe('the path', () => {
  it.each([
    ['bare', '52998224725', '***********'],
    ['formatted', '529.982.247-25', '***.***.***-**'],
    ['dash only', '529982247-25', '*********-**'],
    ['spaces, percent-encoded', '529%20982%20247%2025', '***%20***%20***%20**'],
    ['dots only', '529.982.247.25', '***.***.***.**'],
    // A run written encoded (a form's + as a space too) is shown read, masked and encoded again
    // (src/redact.ts redactPath, issue 34): a space as %20, a dot and a dash as themselves.
    ['plus signs', '529+982+247+25', '***%20***%20***%20**'],
    ['encoded dot and dash', '529%2E982%2E247%2D25', '***.***.***-**'],
    ['encoded digits', '%35%32%39982247-25', '*********-**'],
  ])('masks a CPF written %s', (_how, written, shown) => {
    expect(redactPath(`/customers/${written}/keys?x=1`)).toBe(`/customers/${shown}/keys`);
  });

  it('keeps shorter digit runs, and runs split by a letter', () => {
    expect(redactPath('/v2/api/1234567890/k/2026-11-24/a/123/4567/b/8901/12345a678901')).toBe(
      '/v2/api/1234567890/k/2026-11-24/a/123/4567/b/8901/12345a678901',
    );
  });

  it('masks a run of eleven digits or more joined across path segments (a slash is a gap like any other)', () => {
    // Issue 34: anything neither a letter nor a number may stand between two digits, '/' included.
    expect(redactPath('/v2/api/1234567890/2026-11-24/123/4567/8901/12345a678901')).toBe(
      '/v2/api/**********/****-**-**/***/****/****/*****a678901',
    );
  });

  it('masks a bearer credential up to the next segment', () => {
    expect(redactPath('/x/Bearer%20sbx_secret-value/y')).toBe('/x/Bearer%20***/y');
    expect(redactPath('/x/bearer+sbx_secret')).toBe('/x/bearer+***');
  });
});
