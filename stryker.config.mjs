// `npm run test:mutation` (scripts/mutation.mjs runs this on Node 22, which StrykerJS 10 needs).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner', './stryker-plugins/message-text-ignorer.mjs'],
  // Mutants that change only the words of a message or of the help: each format is pinned once (the
  // reason names where); names in messages, headers, JSON keys and problem types stay mutated.
  ignorers: ['message-text'],
  mutate: ['src/**/*.ts', '!src/generated/**', '!src/**/*.d.ts'],
  coverageAnalysis: 'perTest',
  // Re-runs test only the mutants whose code or covering tests changed since the committed result.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
};
