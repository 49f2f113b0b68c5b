// The guide's "Sharing one limit across processes" shows the very files this folder runs, in both
// languages (test/examples/doc-blocks.test.ts keeps each block equal to its file).
import { expect, it } from 'vitest';
import { exampleBlocks } from '../../scripts/lib/doc-examples.mjs';

const RECIPE = ['examples/shared-limit/limiter.ts', 'examples/shared-limit/worker.ts'];

it.each(['docs/guides/batch.md', 'docs/guias/batch.md'])('%s shows the shared-limit recipe', (guide) => {
  expect(exampleBlocks(guide).map((block) => block.example)).toEqual(expect.arrayContaining(RECIPE));
});
