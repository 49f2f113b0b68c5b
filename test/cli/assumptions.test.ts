// The spec's x-assumption choices, collected from any depth with a JSON pointer each, and rendered as
// the Markdown table the docs page and the guide show (test/spec/assumptions.test.ts checks the real
// spec against the guide; this file checks the walk and the table on small documents).
import { describe, expect, it } from 'vitest';
import { assumptionsTable, collectAssumptions } from '../../src/cli/assumptions.js';

const given = (notShown: string, choice = 'c', why = 'w') => ({ 'not-shown': notShown, choice, why });

describe('collectAssumptions', () => {
  it('finds x-assumptions at the root (a list) and x-assumption at any depth, in document order', () => {
    const spec = {
      'x-assumptions': [given('root one'), given('root two')],
      info: { title: 't', version: 1, flag: true, nothing: null },
      paths: { '/keys/{id}': { get: { 'x-assumption': given('deep', 'the choice', 'the reason') } } },
    };
    expect(collectAssumptions(spec)).toEqual([
      { where: '/', notShown: 'root one', choice: 'c', why: 'w' },
      { where: '/', notShown: 'root two', choice: 'c', why: 'w' },
      { where: '/paths/~1keys~1{id}/get', notShown: 'deep', choice: 'the choice', why: 'the reason' },
    ]);
  });

  it('walks arrays with the index in the pointer, and escapes ~ as ~0', () => {
    const spec = { list: [{}, { 'a~b': { 'x-assumption': given('in a list') } }] };
    expect(collectAssumptions(spec)).toEqual([{ where: '/list/1/a~0b', notShown: 'in a list', choice: 'c', why: 'w' }]);
  });

  it('lists each not-shown once, at its first place', () => {
    const spec = {
      a: { 'x-assumption': given('same', 'first') },
      b: { 'x-assumption': given('same', 'second') },
      c: { 'x-assumption': given('other') },
    };
    expect(collectAssumptions(spec).map((a) => [a.where, a.choice, a.notShown])).toEqual([
      ['/a', 'first', 'same'],
      ['/c', 'c', 'other'],
    ]);
  });

  it('finds nothing in a document without them, or in no document', () => {
    expect(collectAssumptions({ a: [1, 'x', null], b: { c: false } })).toEqual([]);
    expect(collectAssumptions(null)).toEqual([]);
    expect(collectAssumptions('x-assumption')).toEqual([]);
  });
});

describe('assumptionsTable', () => {
  it('is a Markdown table, one row per assumption, with | escaped and new lines flattened in the cells', () => {
    const spec = { 'x-assumptions': [given('a | b', 'line one\nline two', 'why')] };
    expect(assumptionsTable(spec)).toBe(
      [
        '| Not shown in the description | Choice in this contract | Why |',
        '|---|---|---|',
        '| a \\| b | line one line two | why |',
      ].join('\n'),
    );
  });

  it('has the header only when there is nothing to show', () => {
    expect(assumptionsTable({})).toBe(
      '| Not shown in the description | Choice in this contract | Why |\n|---|---|---|',
    );
  });
});
