// `npm test`: every unit, in-process and loopback test (`test/**/*.test.ts`), quick enough for every
// change. The slow matrix (`*.matrix.test.ts`: packed-tarball consumers, other runtimes and Node
// versions, Chromium, Redis, scale cases, tools from the tool cache) is vitest.matrix.config.ts's,
// run by `npm run test:all` (TESTING.md, "Two commands").
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export const MATRIX_TESTS = 'test/**/*.matrix.test.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', MATRIX_TESTS],
    globalSetup: ['test/support/global-setup.ts'],
    // vitest's default is one worker per core but one, so a 2-core machine ran the files one at a
    // time while most of them wait on child processes, sockets and timers (the run used 0.74 of one
    // core). One more worker than cores keeps both cores busy; every test is written so that its
    // outcome does not depend on the load this adds (TESTING.md, "Time and load").
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      // Only the type tests: `tsc -p .` has already checked the rest of the project.
      tsconfig: './test/types/tsconfig.json',
    },
  },
});
