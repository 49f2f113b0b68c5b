// `npm run check` (after tsc, Biome and the lock file): the checks that are not unit tests, every
// `test/**/*.check.test.ts` — src/generated/ is what `npm run generate` writes, Redocly and Spectral
// over the spec (and firing on broken copies), the API reports against the working tree's
// declarations, the examples run, and the type tests (`test/**/*.test-d.ts`, vitest's typecheck). Each
// starts tools and processes of its own, one fresh fork per file.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.check.test.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    maxWorkers: availableParallelism() + 1,
    // Tools and child processes: minutes under load, never a guess of the machine's speed.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // The type tests (test/types/*.test-d.ts): the TypeScript compiler over the public declarations,
    // a tool run like the others here, each expectation reported as a test. 13–14 s of CPU, the
    // largest single cost `npm test` had.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './test/types/tsconfig.json',
    },
  },
});
