// Tests assert behaviour, not prose: an expect that matches a sentence breaks when the sentence is
// reworded, though nothing a user relies on changed. Each message format is pinned once, in the file
// that owns it (listed below); elsewhere a test asserts the class, the kind, the field named, the value
// not shown. This keeps the share of expects carrying a literal of five words or more from creeping back.
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { countSource, countSuite, PROSE_WORDS } from '../../scripts/lib/prose-count.mjs';

/** The files that pin a message format word for word, once, and why they may. */
const PINS: Record<string, string> = {
  'test/client/errors.test.ts': "the error classes' message formats (src/errors.ts)",
  'test/cli/help.test.ts': "every command's help text, whole, and the usage errors' format",
  'test/logging/messages.test.ts': 'the log messages of each event kind',
};

const MAX_SHARE = 1 / 10;

describe('the suite asserts behaviour, not prose', () => {
  const suite = countSuite(repoRoot);
  const counted = suite.files.filter((f) => !(f.file in PINS));

  it(`has at most 1 expect in 10 carrying a literal of ${PROSE_WORDS} words or more, outside the files that pin formats`, () => {
    const expects = counted.reduce((sum, f) => sum + f.expects, 0);
    const prose = counted.reduce((sum, f) => sum + f.prose, 0);
    const worst = [...counted]
      .sort((a, b) => b.prose - a.prose)
      .slice(0, 8)
      .map((f) => `${f.file}: ${f.prose} of ${f.expects} (lines ${f.lines.join(', ')})`);
    expect(
      prose / expects,
      `${prose} of ${expects} expects match prose; the worst files:\n${worst.join('\n')}`,
    ).toBeLessThanOrEqual(MAX_SHARE);
  });

  it('lists only pin files that exist', () => {
    const files = new Set(suite.files.map((f) => f.file));
    for (const pin of Object.keys(PINS)) expect(files.has(pin), pin).toBe(true);
  });
});

describe('the count', () => {
  const count = (body: string) => countSource('x.test.ts', body);

  it('counts each expect statement once, chained matchers, `await` and `.rejects` included', () => {
    expect(
      count(
        'expect(a).toBe(1);\nawait expect(p).rejects.toThrow(TypeError);\nexpect.soft(b).toEqual({ a: 1 });\nconst x = expect;',
      ).expects,
    ).toBe(3);
  });

  it('flags a string, template or regular expression literal of five words or more, anywhere in the statement', () => {
    const flagged = [
      "expect(e.message).toBe('one two three four five');",
      'expect(e.message).toBe(`one ${two} three four five`);',
      'expect(e.message).toMatch(/one\\stwo three four five/);',
      "expect(rows).toEqual([{ seen: 'one two three four five' }]);",
      "expect(e, 'one two three four five').toBeInstanceOf(TypeError);",
    ];
    for (const body of flagged) expect(count(body), body).toMatchObject({ expects: 1, prose: 1, lines: [1] });
  });

  it('leaves alone names, short phrases and templates with four words', () => {
    const plain = [
      "expect(e.message).toContain('timeoutMs');",
      'expect(e.message).toMatch(/must be at least/);',
      'expect(e.message).toBe(`${a} ${b} ${c} d`);',
      "expect(h['retry-after']).toBe('1');",
    ];
    for (const body of plain) expect(count(body), body).toMatchObject({ expects: 1, prose: 0 });
  });
});
