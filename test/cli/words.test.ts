// How the package writes words (src/words.ts): counts, and the name meant when one is mistyped, which
// the command line's flags, the client's options and the sandbox's all take from here. The messages
// built on them are pinned where TESTING.md says; this checks the rules themselves.
import { describe, expect, it } from 'vitest';
import { closestName, editDistance, misspeltMembers, n, plural } from '../../src/words.js';

describe('counts', () => {
  it('groups digits and puts the noun in the singular for one only', () => {
    expect(n(1234567)).toBe('1,234,567');
    expect(plural(1, 'page')).toBe('1 page');
    expect(plural(0, 'page')).toBe('0 pages');
    expect(plural(1000, 'more account', 'more accounts')).toBe('1,000 more accounts');
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions, and two letters swapped as one step wherever they are', () => {
    const cases: [string, string, number][] = [
      ['', 'abc', 3],
      ['abc', '', 3],
      ['abc', 'abc', 0],
      ['kitten', 'sitting', 3],
      ['ab', 'cd', 2],
      // Half a swap is not a swap.
      ['ab', 'ca', 2],
      ['ab', 'bc', 2],
      ['abc', 'ab', 1],
      ['ab', 'ba', 1],
      ['--prot', '--port', 1],
      ['abdc', 'abcd', 1],
      ['baxy', 'abxy', 1],
    ];
    expect(cases.map(([a, b]) => [a, b, editDistance(a, b)])).toEqual(cases);
  });
});

describe('closestName', () => {
  it('a prefix of a name, or the name with something added, is what was meant however long', () => {
    expect(closestName('time', ['retry', 'timeoutMs'])).toBe('timeoutMs');
    expect(closestName('portNumberPlease', ['host', 'port'])).toBe('port');
  });

  it('takes the first of the nearest; up to 2 edits for a short name, a third of a long one; else none', () => {
    expect(closestName('--pot', ['--port', '--post'])).toBe('--port');
    expect(closestName('pxrx', ['port'])).toBe('port');
    expect(closestName('pxrxx', ['port'])).toBeUndefined();
    expect(closestName('mxRspnseBytes', ['maxResponseBytes'])).toBe('maxResponseBytes');
    expect(closestName('xyz', ['port'])).toBeUndefined();
    expect(closestName('port', [])).toBeUndefined();
  });
});

describe('misspeltMembers', () => {
  const known = ['baseUrl', 'timeoutMs', 'post', 'listenPort'];

  it('finds other cases and near names, and leaves known and far members alone', () => {
    expect(misspeltMembers({ baseURL: 1, timeotMs: 2, baseUrl: 3, customerData: 4 }, known)).toEqual([
      { given: 'baseURL', meant: 'baseUrl' },
      { given: 'timeotMs', meant: 'timeoutMs' },
    ]);
    expect(misspeltMembers({ timeoutMsss: 1 }, known, { maxEdits: 1 })).toEqual([]);
  });

  it('an alias wins over a near name, however many edits are allowed; only an own member is an alias', () => {
    const aliases = { port: 'listenPort' };
    expect(misspeltMembers({ port: 1 }, known, { aliases })).toEqual([{ given: 'port', meant: 'listenPort' }]);
    expect(misspeltMembers({ port: 1 }, known, { aliases, maxEdits: 100 })).toEqual([
      { given: 'port', meant: 'listenPort' },
    ]);
    expect(misspeltMembers({ toString: 1 }, known, { aliases })).toEqual([]);
  });
});
