// The suite StrykerJS runs for each mutant: the behavioural tests of src/, without the folders that
// test other things (the docs page in Chromium, the packed tarball, the spec's lint, type tests),
// which no mutant of src/ can change, and without the suites that start other programs per test
// (the command line's processes, Prism in dynamic mode, redocly respect, which finds no redocly in
// StrykerJS's sandbox): each would cost seconds
// per mutant. Their code (src/cli/, src/testing/mock.ts) is mutated against the rest.
//
// MUTATION_TESTS (set by `npm run test:mutation -- --tests 'glob,glob'`) narrows the suite to those
// tests. It is set after the merge: mergeConfig appends arrays, so merging it would keep the whole suite.
// One project, isolated per file, rather than npm test's three (vitest.config.ts): StrykerJS's runner
// selects files itself; the Prism of the `prism` project's files is started by the same global setup.
import { matchesGlob } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { testProjects } from './scripts/lib/test-kinds.mjs';
import base, { CHECK_TESTS, MATRIX_TESTS } from './vitest.config.js';

export const MUTATION_EXCLUDE = [
  'node_modules/**',
  'test/docs/**',
  'test/package/**',
  'test/release/**',
  'test/spec/**',
  'test/size/**',
  'test/mutation/**',
  'test/meta/**',
  'test/cli/signals.matrix.test.ts',
  'test/sandbox/script.test.ts',
  'test/drift/respect.matrix.test.ts',
  'test/drift/verify-sandbox.test.ts',
  'test/properties/dynamic-mock.test.ts',
];

/** The test globs of MUTATION_TESTS, or undefined for the whole mutation suite. */
export function narrowedInclude(value = process.env.MUTATION_TESTS): string[] | undefined {
  const globs = value?.split(',').map((glob) => glob.trim()).filter(Boolean);
  return globs?.length ? globs : undefined;
}

const config = mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [...MUTATION_EXCLUDE, MATRIX_TESTS, CHECK_TESTS],
      globalSetup: ['test/support/prism-setup.ts'],
      typecheck: { enabled: false },
      // Every property at its full run count (test/properties/depth.ts): the mutation score is the matrix's depth.
      env: { PROPERTY_DEPTH: 'full' },
    },
  }),
);
delete config.test!.projects;
config.test!.include = ['test/**/*.test.ts'];
const include = narrowedInclude();
if (include) {
  config.test!.include = include;
  // Prism only when a file that reads it is among them: its start is seconds of CPU, paid again each
  // time StrykerJS replaces a test worker (after every mutant that timed out).
  // Every project that reads Prism: `prism`, and `prism-isolated` (Prism beside a module mock).
  const kinds = testProjects(fileURLToPath(new URL('.', import.meta.url)), (name) => name.endsWith('.test.ts'));
  const readsPrism = [...kinds.prism, ...kinds['prism-isolated']];
  if (!readsPrism.some((file: string) => include.some((glob) => matchesGlob(file, glob)))) delete config.test!.globalSetup;
}

export default config;
