// `npm test`: every unit, in-process and loopback test (`test/**/*.test.ts`), quick enough for every
// change, in five projects that a rule over what each file loads decides (scripts/lib/test-kinds.mjs;
// TESTING.md, "Two projects"), never a list of names:
// - pure: threads sharing one module graph (no per-file isolation); test/support/pure-setup.ts makes
//   a process, a thread or a socket throw and fails a file that leaves global state behind;
// - process: what starts processes, threads or servers, or opens sockets: forks sharing one module
//   graph per fork; test/support/process-setup.ts fails a file that leaves global state behind;
// - isolated: what mocks a module or resets the registry (vi.mock, vi.doMock, vi.resetModules): one
//   fresh fork per file;
// - prism: the files that read the run's Prism mock, which that project's global setup starts only
//   when one of them runs: forks sharing one module graph per fork, under process-setup.ts's guard;
// - prism-isolated: those that also mock a module: one fresh fork per file, the same Prism.
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

// Backstops for a test that hangs, never an estimate of the machine's speed: at a load average of
// 17–24, property tests over loopback servers and Prism's start took more than the 30 s this was
// (test/tracing/secrets.test.ts, test/testing/mock.test.ts, now a matrix file, failed so).
// Each project states them itself rather than `extends: true`, with which vitest loaded this file
// again for every project (bundled and run five times a run, the classification of every test file
// with it: 4–6 s of CPU of the main process).
const limits = { testTimeout: 300_000, hookTimeout: 600_000 };

// `@fast-check/vitest` is test/support/fast-check-vitest.ts in every run (the matrix's and StrykerJS's
// too): the package builds a `.prop` for every chain of vitest 4's test modifiers when it loads, 2.1 s
// of CPU for each module graph that imports it; that module makes `.prop` when a test reads it.
export const FAST_CHECK_VITEST = {
  find: /^@fast-check\/vitest$/,
  replacement: fileURLToPath(new URL('./test/support/fast-check-vitest.ts', import.meta.url)),
};
const resolve = { alias: [FAST_CHECK_VITEST] };

export default defineConfig({
  resolve,
  test: {
    // vitest's default is one worker per core but one, so a 2-core machine ran the files one at a
    // time while most of them wait on child processes, sockets and timers. One more worker than cores
    // keeps both cores busy; every test is written so that its outcome does not depend on the load
    // this adds (TESTING.md, "Time and load").
    maxWorkers: availableParallelism() + 1,
    ...limits,
    projects: [
      {
        resolve,
        test: {
          ...limits,
          name: 'pure',
          include: only(kinds.pure),
          pool: 'threads',
          isolate: false,
          setupFiles: ['test/support/pure-setup.ts'],
        },
      },
      {
        resolve,
        test: {
          ...limits,
          name: 'process',
          include: only(kinds.process),
          pool: 'forks',
          // Forks that share one module graph per fork (a fork and a graph for each file cost 0.3–1.0 s
          // of CPU; sharing them cut this project from 217 s to 137 s of CPU). Its setup file fails a
          // file that leaves global state behind for the next file of its fork, spies vitest restores
          // after the file included (test/support/global-state.ts).
          isolate: false,
          setupFiles: ['test/support/process-setup.ts'],
          // The command line the tests start, bundled once for the run (test/support/cli.ts).
          globalSetup: ['test/support/cli-setup.ts'],
        },
      },
      {
        resolve,
        test: {
          ...limits,
          name: 'isolated',
          include: only(kinds.isolated),
          pool: 'forks',
          isolate: true,
        },
      },
      {
        resolve,
        test: {
          ...limits,
          name: 'prism',
          include: only(kinds.prism),
          pool: 'forks',
          // Forks sharing one module graph per fork, as in process, and under the same guard: a fresh
          // fork per file was 27.1 s of CPU for the project alone (13 files, load 12), shared 14.3-15.1 s
          // (its 10 files, load 13; the fault matrix and never-hangs, which read no Prism, run in
          // process now, and the file that also mocks a module in prism-isolated).
          isolate: false,
          setupFiles: ['test/support/process-setup.ts'],
          globalSetup: ['test/support/prism-setup.ts'],
        },
      },
      {
        resolve,
        test: {
          ...limits,
          // Reads Prism and mocks a module (test/cli/commands.test.ts): a fresh fork per file, and the
          // same Prism as the prism project's (prism-setup.ts starts one for both).
          name: 'prism-isolated',
          include: only(kinds['prism-isolated']),
          pool: 'forks',
          isolate: true,
          globalSetup: ['test/support/prism-setup.ts'],
        },
      },
    ],
  },
});
