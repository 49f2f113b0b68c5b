// The Portuguese guides (docs/guias/) match the English ones (docs/guides/): the same files, and in each
// the same outline — the same number of headings at each level, of paragraphs, of list items, of table
// rows and of code blocks. A cheap check that catches a section or a paragraph left untranslated.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const guides = (folder: string) =>
  readdirSync(join(repoRoot, folder))
    .filter((name) => name.endsWith('.md'))
    .sort();

/** How many blocks of each kind a Markdown file has, code blocks counted whole and never looked into. */
function outline(markdown: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (kind: string) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  let inCode = false;
  let inParagraph = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (!inCode) add('code block');
      inCode = !inCode;
      inParagraph = false;
      continue;
    }
    if (inCode) continue;
    const heading = /^(#{1,6}) /.exec(line);
    if (heading) add(`heading ${heading[1]!.length}`);
    else if (/^\s*([-*+]|\d+\.) /.test(line)) add('list item');
    else if (/^\s*\|/.test(line)) add('table row');
    else if (line.trim() === '' || /^<!--.*-->$/.test(line.trim())) {
      inParagraph = false;
      continue;
    } else if (!inParagraph) add('paragraph');
    // A list item's or a row's continuation lines belong to it; a paragraph's to the paragraph.
    inParagraph = line.trim() !== '';
  }
  return counts;
}

describe('the Portuguese guides', () => {
  it('are the same files as the English guides', () => {
    expect(guides('docs/guias')).toEqual(guides('docs/guides'));
  });

  it.each(guides('docs/guides'))('%s has the outline of its English guide', (name) => {
    const english = outline(readFileSync(join(repoRoot, 'docs/guides', name), 'utf8'));
    const portuguese = outline(readFileSync(join(repoRoot, 'docs/guias', name), 'utf8'));
    expect(english['heading 1']).toBe(1);
    expect(portuguese).toEqual(english);
  });

  // What the package prints is quoted in English in both languages (`line 2: …`, `given up  4 (…)`): a
  // quote of the English guide that holds ": " (a message, a rule) and is missing from the Portuguese one
  // is a sentence left untranslated, or a message changed in one language only.
  it.each(guides('docs/guides'))('%s quotes every message its English guide quotes', (name) => {
    const quotes = (folder: string) => {
      const prose = readFileSync(join(repoRoot, folder, name), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/\s*\n\s*/g, ' ');
      // A code span as CommonMark reads it: a run of backticks, closed by a run of the same length, so
      // `` a `nested` one `` is one span; a space on both sides of its text is the run's padding.
      const spans = [...prose.matchAll(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)].map(([, , text]) =>
        /^ [\s\S]* $/.test(text!) ? text!.slice(1, -1) : text!,
      );
      return new Set(spans.filter((quote) => quote.includes(': ')));
    };
    const portuguese = quotes('docs/guias');
    expect([...quotes('docs/guides')].filter((quote) => !portuguese.has(quote))).toEqual([]);
  });
});
