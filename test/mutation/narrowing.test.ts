// `npm run test:mutation -- --tests 'glob,glob'` must run only those tests against the mutants. A
// mergeConfig of the globs would append them to the suite's own include and change nothing, so this
// loads the real config with MUTATION_TESTS set and checks what it selects.
import { afterEach, describe, expect, it, vi } from 'vitest';

async function loadConfig(tests: string | undefined) {
  vi.resetModules();
  if (tests === undefined) delete process.env.MUTATION_TESTS;
  else process.env.MUTATION_TESTS = tests;
  return (await import('../../vitest.mutation.config.js')).default;
}

afterEach(() => {
  delete process.env.MUTATION_TESTS;
});

describe('vitest.mutation.config.ts', () => {
  it('selects exactly the globs given with --tests', async () => {
    const config = await loadConfig(' test/auth/**, test/client/errors.test.ts ,');
    expect(config.test?.include).toEqual(['test/auth/**', 'test/client/errors.test.ts']);
  });

  it('selects the whole suite without --tests, minus the suites no mutant can change', async () => {
    const config = await loadConfig(undefined);
    expect(config.test?.include).toEqual(['test/**/*.test.ts']);
    expect(config.test?.exclude).toEqual(
      expect.arrayContaining(['test/docs/**', 'test/package/**', 'test/mutation/**']),
    );
    expect(config.test?.typecheck?.enabled).toBe(false);
  });

  it('keeps the whole suite for an empty list', async () => {
    const config = await loadConfig(' , ');
    expect(config.test?.include).toEqual(['test/**/*.test.ts']);
  });
});
