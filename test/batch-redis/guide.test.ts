// The guide's "Sharing one limit across processes" shows the very files this folder runs, in both
// languages (test/examples/doc-blocks.test.ts keeps each block equal to its file).
import { expect, it } from 'vitest';
import { exampleBlocks } from '../../scripts/lib/doc-examples.mjs';

const RECIPE = ['examples/shared-limit/limiter.ts', 'examples/shared-limit/worker.ts'];

it.each(['docs/guides/batch.md', 'docs/guias/batch.md'])('%s shows the shared-limit recipe', (guide) => {
  // The Portuguese guide shows the recipe's copies with Portuguese comments (examples/pt-BR/), same code.
  const shown = exampleBlocks(guide).map((block) => block.example.replace('examples/pt-BR/', 'examples/'));
  expect(shown).toEqual(expect.arrayContaining(RECIPE));
});
