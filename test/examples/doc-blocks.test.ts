// The README's and the guides' code blocks marked `<!-- example: examples/<file> -->` are the example
// files, byte for byte (`npm run docs:examples` copies them); every example is shown somewhere, and
// each English guide and its Portuguese one show the same examples in the same order. A Portuguese
// guide may show an example's Portuguese copy, `examples/pt-BR/<file>`, whose comments are translated and
// whose code is the English file's; its other code blocks are its English guide's, comments aside.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documents, exampleBlocks, refreshExampleBlocks, withoutComments } from '../../scripts/lib/doc-examples.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const docs = documents();
const guias = readdirSync(join(repoRoot, 'docs/guias')).filter((name) => name.endsWith('.md'));
const PORTUGUESE = 'examples/pt-BR/';
const translated = readdirSync(join(repoRoot, PORTUGUESE), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => `${PORTUGUESE}${name}`);
/** The English example a Portuguese copy translates (`examples/pt-BR/x.ts` → `examples/x.ts`). */
const original = (example: string) => example.replace(PORTUGUESE, 'examples/');

describe('example blocks of the README and the guides', () => {
  it('are the example files (run `npm run docs:examples` when this fails)', () => {
    expect(refreshExampleBlocks({ write: false })).toEqual([]);
  });

  it.each(docs)('%s names only example files that exist', (document) => {
    for (const { example } of exampleBlocks(document))
      expect(existsSync(join(repoRoot, example)), `${document}: ${example}`).toBe(true);
  });

  it('show every example', () => {
    const shown = new Set(docs.flatMap((document) => exampleBlocks(document).map((block) => block.example)));
    const files = readdirSync(join(repoRoot, 'examples'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `examples/${name}`);
    expect(files.filter((file) => !shown.has(file))).toEqual([]);
  });

  it('the README shows the first call', () => {
    expect(exampleBlocks('README.md').map((block) => block.example)).toContain('examples/first-call.ts');
  });

  it('the getting-started guide is in Portuguese too', () => {
    expect(guias).toContain('getting-started.md');
  });

  it.each(guias)('docs/guias/%s shows the same examples as its English guide, in order', (guide) => {
    const names = (document: string) => exampleBlocks(document).map((block) => original(block.example));
    expect(names(`docs/guias/${guide}`)).toEqual(names(`docs/guides/${guide}`));
  });

  it.each(guias)('docs/guias/%s has every code block of its English guide, in order, comments aside', (guide) => {
    const blocks = (path: string) =>
      (readFileSync(join(repoRoot, path), 'utf8').match(/```[a-z]*\n[\s\S]*?```/g) ?? []).map(withoutComments);
    expect(blocks(`docs/guias/${guide}`)).toEqual(blocks(`docs/guides/${guide}`));
  });

  it.each(translated)('%s is its English example with the comments translated, nothing else', (copy) => {
    const english = readFileSync(join(repoRoot, original(copy)), 'utf8');
    const portuguese = readFileSync(join(repoRoot, copy), 'utf8');
    expect(withoutComments(portuguese)).toEqual(withoutComments(english));
    expect(portuguese).not.toEqual(english);
  });

  it('shows every Portuguese copy in a Portuguese guide', () => {
    const shown = new Set(guias.flatMap((guide) => exampleBlocks(`docs/guias/${guide}`).map((block) => block.example)));
    expect(translated.filter((copy) => !shown.has(copy))).toEqual([]);
  });

  // Some guides (the client's, the contract) show no example file; the ones that do must be seen to,
  // so that a marker the pattern no longer reads cannot make the comparison above pass on two empty lists.
  it('the Portuguese guides show examples where their English guides do', () => {
    const shown = guias.filter((guide) => exampleBlocks(`docs/guias/${guide}`).length > 0);
    expect(shown).toContain('getting-started.md');
    expect(shown).toContain('testing.md');
  });
});
