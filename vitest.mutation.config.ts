// The suite StrykerJS runs for each mutant: the behavioural tests of src/, without the folders that
// test other things (the docs page in Chromium, the packed tarball, the spec's lint, type tests),
// which no mutant of src/ can change, and without the suites that start other programs per test
// (the command line's processes, Prism in dynamic mode, redocly respect): each would cost seconds
// per mutant. Their code (src/cli/, src/testing/mock.ts) is mutated against the rest.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'node_modules/**',
        'test/docs/**',
        'test/package/**',
        'test/release/**',
        'test/spec/**',
        'test/size/**',
        'test/mutation/**',
        'test/cli/signals.test.ts',
        'test/sandbox/script.test.ts',
        'test/drift/respect-matrix.test.ts',
        'test/properties/dynamic-mock.test.ts',
      ],
      typecheck: { enabled: false },
    },
  }),
);
