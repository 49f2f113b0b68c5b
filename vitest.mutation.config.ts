// The suite StrykerJS runs for each mutant: every behavioural test of src/, without the folders
// that test other things (the docs page in Chromium, the packed tarball, the spec's lint, type
// tests), which no mutant of src/ can change and which would make each run minutes longer.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/docs/**', 'test/package/**', 'test/spec/**', 'test/size/**', 'node_modules/**'],
      typecheck: { enabled: false },
    },
  }),
);
