// `npm test`: every unit, in-process and loopback test (`test/**/*.test.ts`), quick enough for every
// change, in three projects that a rule over what each file loads decides (scripts/lib/test-kinds.mjs;
// TESTING.md, "Two projects"), never a list of names:
// - pure: threads sharing one module graph (no per-file isolation); test/support/pure-setup.ts makes
//   a process, a thread or a socket throw and fails a file that leaves global state behind;
// - process: what starts processes, threads or servers, or opens sockets: one fresh fork per file;
// - prism: the files that read the run's Prism mock, which that project's global setup starts only
//   when one of them runs.
// The slow matrix (`*.matrix.test.ts`) is vitest.matrix.config.ts's; the checks that are not unit
// tests (`*.check.test.ts`: generated files, lints, the lock file, the API reports) are
// vitest.check.config.ts's, run by `npm run check` (TESTING.md, "Two commands").
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testProjects } from './scripts/lib/test-kinds.mjs';

export const MATRIX_TESTS = 'test/**/*.matrix.test.ts';
export const CHECK_TESTS = 'test/**/*.check.test.ts';

const kinds = testProjects(
  fileURLToPath(new URL('.', import.meta.url)),
  (name) => name.endsWith('.test.ts') && !name.endsWith('.matrix.test.ts') && !name.endsWith('.check.test.ts'),
);
// A project with no file would be one vitest refuses to start; `[]` never happens in this repository.
const only = (files: string[]) => (files.length > 0 ? files : ['test/support/none']);

export default defineConfig({
  test: {
    // vitest's default is one worker per core but one, so a 2-core machine ran the files one at a
    // time while most of them wait on child processes, sockets and timers. One more worker than cores
    // keeps both cores busy; every test is written so that its outcome does not depend on the load
    // this adds (TESTING.md, "Time and load").
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'pure',
          include: only(kinds.pure),
          pool: 'threads',
          isolate: false,
          setupFiles: ['test/support/pure-setup.ts'],
          typecheck: {
            enabled: true,
            include: ['test/**/*.test-d.ts'],
            // Only the type tests: `tsc -p .` (npm run check) checks the rest.
            tsconfig: './test/types/tsconfig.json',
          },
        },
      },
      {
        extends: true,
        test: { name: 'process', include: only(kinds.process), pool: 'forks', isolate: true },
      },
      {
        extends: true,
        test: {
          name: 'prism',
          include: only(kinds.prism),
          pool: 'forks',
          isolate: true,
          globalSetup: ['test/support/prism-setup.ts'],
          // Every request goes through Prism, another process: backstops, not estimates (at a load
          // average of 20 a property over the mock took more than 30 s).
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
