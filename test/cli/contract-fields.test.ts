// Which fields the request log may name: those a contract defines, worked out from small documents
// ($refs, composition, arrays, recursion, escaped names, parameters at two levels). The bundled
// spec's own fields are checked in request-log-fields.test.ts.
import { describe, expect, it } from 'vitest';
import { contractFields, type FieldsDocument, UNKNOWN_FIELD } from '../../src/cli/contract-fields.js';

/** A document with one operation whose JSON body is `schema`, and `components` beside it. */
const withBody = (schema: unknown, schemas: Record<string, unknown> = {}) =>
  contractFields({
    paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema } } } } } },
    components: { schemas },
  } as FieldsDocument);

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const leaf = { type: 'string' };

describe('body fields', () => {
  it('are known through $refs, a $ref to a $ref, and names with / and ~ (escaped in the pointer)', () => {
    const fields = withBody(
      { $ref: '#/components/schemas/Outer' },
      {
        Outer: object({ 'a/b~c': { $ref: '#/components/schemas/Alias' } }),
        Alias: { $ref: '#/components/schemas/In~1ner~0' },
        'In/ner~': object({ city: leaf }),
      },
    );
    expect(fields.bodyField(['a/b~c', 'city'])).toBe('/a~1b~0c/city');
    expect(fields.bodyField(['a/b~c', 'street'])).toBe(UNKNOWN_FIELD);
    expect(fields.bodyField([])).toBe('body');
  });

  it('stop following a chain of $refs after 32 hops (a cycle of refs ends)', () => {
    const chain = (length: number) => {
      const schemas: Record<string, unknown> = { [`R${length}`]: object({ x: leaf }) };
      for (let i = 0; i < length; i += 1) schemas[`R${i}`] = { $ref: `#/components/schemas/R${i + 1}` };
      return withBody(object({ a: { $ref: '#/components/schemas/R1' } }), schemas);
    };
    expect(chain(32).bodyField(['a', 'x'])).toBe('/a/x');
    expect(chain(33).bodyField(['a', 'x'])).toBe(UNKNOWN_FIELD);
    const cycle = withBody(object({ a: { $ref: '#/components/schemas/P' } }), {
      P: { $ref: '#/components/schemas/Q' },
      Q: { $ref: '#/components/schemas/P' },
    });
    expect(cycle.bodyField(['a', 'x'])).toBe(UNKNOWN_FIELD);
  });

  it('join the parts of allOf, anyOf and oneOf', () => {
    const fields = withBody({
      allOf: [object({ a: leaf })],
      anyOf: [object({ b: leaf })],
      oneOf: [object({ c: leaf })],
    });
    expect(['a', 'b', 'c', 'd'].map((name) => fields.bodyField([name]))).toEqual(['/a', '/b', '/c', UNKNOWN_FIELD]);
  });

  it('keep apart two objects that share no schema', () => {
    const fields = withBody(object({ first: object({ x: leaf }), second: object({ y: leaf }) }));
    expect([fields.bodyField(['first', 'x']), fields.bodyField(['second', 'y'])]).toEqual(['/first/x', '/second/y']);
    expect([fields.bodyField(['first', 'y']), fields.bodyField(['second', 'x'])]).toEqual([
      UNKNOWN_FIELD,
      UNKNOWN_FIELD,
    ]);
  });

  it('of one place never join another through a schema met before', () => {
    // The first body reaches its end with a field (recursion returns early); the second body's
    // fields must stay its own.
    const fields = contractFields({
      paths: {
        '/a': {
          post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Self' } } } } },
        },
        '/b': {
          post: {
            requestBody: { content: { 'application/json': { schema: object({ z: object({ w: object({}) }) }) } } },
          },
        },
      },
      components: { schemas: { Self: object({ self: { $ref: '#/components/schemas/Self' } }) } },
    } as FieldsDocument);
    expect([fields.bodyField(['self']), fields.bodyField(['z', 'w'])]).toEqual(['/self', '/z/w']);
    expect([
      fields.bodyField(['z', 'w', 'self']),
      fields.bodyField(['z', 'w', 'z']),
      fields.bodyField(['z', 'self']),
    ]).toEqual([UNKNOWN_FIELD, UNKNOWN_FIELD, UNKNOWN_FIELD]);
  });

  it('of a schema used at two places are known at both, objects and arrays alike', () => {
    const fields = withBody(
      object({
        home: { $ref: '#/components/schemas/Address' },
        work: { $ref: '#/components/schemas/Address' },
        before: { $ref: '#/components/schemas/List' },
        after: { $ref: '#/components/schemas/List' },
      }),
      { Address: object({ city: leaf }), List: { type: 'array', items: object({ id: leaf }) } },
    );
    expect(['home', 'work'].map((at) => fields.bodyField([at, 'city']))).toEqual(['/home/city', '/work/city']);
    expect(['before', 'after'].map((at) => fields.bodyField([at, '0', 'id']))).toEqual(['/before/0/id', '/after/0/id']);
  });

  it('already at a place keep theirs when a schema met before joins it', () => {
    const fields = withBody(
      object({
        t: { $ref: '#/components/schemas/T' },
        w: { allOf: [object({ p: object({ r: leaf }) }), { $ref: '#/components/schemas/T' }] },
      }),
      { T: object({ p: object({ q: leaf }), s: leaf }) },
    );
    expect([fields.bodyField(['w', 'p', 'r']), fields.bodyField(['w', 's'])]).toEqual(['/w/p/r', '/w/s']);
  });

  it('of a recursive schema end the walk; the fields met before the recursion are known one level down', () => {
    // The copy made at the recursion holds what was built so far, so a deeper level is not named:
    // the safe direction (a field the log does not name is shown as unknown, never invented).
    const fields = withBody(
      { $ref: '#/components/schemas/Node' },
      { Node: object({ name: leaf, child: { $ref: '#/components/schemas/Node' } }) },
    );
    expect([fields.bodyField(['name']), fields.bodyField(['child', 'name'])]).toEqual(['/name', '/child/name']);
    expect(fields.bodyField(['child', 'other'])).toBe(UNKNOWN_FIELD);
  });

  it('in an array are reached by a decimal index only, up to 9 digits', () => {
    const fields = withBody(
      object({ list: { type: 'array', items: object({ x: leaf }) }, plain: object({ '0': leaf }) }),
    );
    for (const index of ['0', '5', '12', '123456789'])
      expect(fields.bodyField(['list', index, 'x'])).toBe(`/list/${index}/x`);
    for (const index of ['01', 'a0', '0a', 'x', '1234567890', '-1'])
      expect(fields.bodyField(['list', index, 'x'])).toBe(UNKNOWN_FIELD);
    expect(fields.bodyField(['list', 'x'])).toBe(UNKNOWN_FIELD);
    // An object's property named "0" is a property, not an index.
    expect(fields.bodyField(['plain', '0'])).toBe('/plain/0');
  });

  it('are none when no operation has a body, and a media type without a schema adds none', () => {
    const none = contractFields({ paths: { '/x': { get: {} } } } as FieldsDocument);
    expect([none.bodyField([]), none.bodyField(['a'])]).toEqual([UNKNOWN_FIELD, UNKNOWN_FIELD]);
    const noSchema = contractFields({
      paths: { '/x': { post: { requestBody: { content: { 'text/plain': {} } } } } },
    } as FieldsDocument);
    expect([noSchema.bodyField([]), noSchema.bodyField(['a'])]).toEqual(['body', UNKNOWN_FIELD]);
    const referenced = contractFields({
      paths: { '/x': { post: { requestBody: { $ref: '#/components/requestBodies/B' } } } },
      components: { requestBodies: { B: { content: { 'application/json': { schema: object({ a: leaf }) } } } } },
    } as FieldsDocument);
    expect(referenced.bodyField(['a'])).toBe('/a');
  });
});

it('shows "(unknown field)" for a field the contract does not define', () => {
  expect(UNKNOWN_FIELD).toBe('(unknown field)');
});

describe('parameters', () => {
  const fields = contractFields({
    paths: {
      '/x': {
        parameters: [{ name: 'X-Path-Level', in: 'header' }],
        get: {
          parameters: [{ $ref: '#/components/parameters/Cursor' }, { name: 'limit', in: 'query' }, { in: 'query' }],
        },
      },
    },
    components: { parameters: { Cursor: { name: 'cursorId', in: 'query' } } },
  } as FieldsDocument);

  // A parameter without a name (a spec lint refuses it) is passed over.
  it("are known in any case, by the spec's spelling, at the path's level and the operation's, through $refs", () => {
    expect(['x-path-level', 'CURSORID', 'limit'].map((name) => fields.parameterField(name))).toEqual([
      'X-Path-Level',
      'cursorId',
      'limit',
    ]);
    expect(fields.parameterField('offset')).toBe(UNKNOWN_FIELD);
  });
});
