import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
