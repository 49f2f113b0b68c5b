// The examples' own vitest run: `npx vitest run --config examples/support/vitest.config.ts`. The package
// name resolves to the source here, as tsconfig.json's `paths` make it for tsc and tsx.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^baas-pix-contract$/, replacement: source('index.ts') },
      { find: /^baas-pix-contract\/sandbox$/, replacement: source('sandbox/index.ts') },
      { find: /^baas-pix-contract\/testing$/, replacement: source('testing/index.ts') },
    ],
  },
  test: { root: fileURLToPath(new URL('..', import.meta.url)), include: ['*.test.ts'] },
});
