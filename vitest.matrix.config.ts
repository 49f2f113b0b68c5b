// `npm run test:matrix` (and the second half of `npm run test:all`): the slow matrix, every
// `test/**/*.matrix.test.ts` — the packed tarball in consumer projects (ESM, CommonJS, Jest; Node 20,
// 22 and 24; TypeScript 5.9 and 7; attw), the runtimes (Bun, Deno, workerd), the docs in Chromium,
// Redis, the scale cases and the StrykerJS instrumenter. Their tools come from the tool cache
// (scripts/lib/tools.mjs), which `npm run test:all` fills first. The verbose reporter prints each
// test as it ends, so a long run shows its progress.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { FAST_CHECK_VITEST } from './vitest.config.js';

export default defineConfig({
  // test/support/fast-check-vitest.ts, as in npm test (vitest.config.ts says why).
  resolve: { alias: [FAST_CHECK_VITEST] },
  test: {
    include: ['test/**/*.matrix.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/support/global-setup.ts', 'test/support/cli-setup.ts'],
    maxWorkers: availableParallelism() + 1,
    // Packing, installs and other programs: minutes under load, never a guess of the machine's speed.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    reporters: ['verbose'],
  },
});
