// `npm run test:mutation -- --tests 'glob,glob'` must run only those tests against the mutants. A
// mergeConfig of the globs would append them to the suite's own include and change nothing, so this
// loads the real config with MUTATION_TESTS set and checks what it selects. Each load is a fresh copy of
// the mutation config (a query of its own), which reads MUTATION_TESTS as it loads; the suite's config it
// extends is loaded once, as its projects (a scan of every test file) do not depend on the variable.
import { afterEach, describe, expect, it } from 'vitest';

let loads = 0;
async function loadConfig(tests: string | undefined) {
  if (tests === undefined) delete process.env.MUTATION_TESTS;
  else process.env.MUTATION_TESTS = tests;
  loads += 1;
  const config = `${new URL('../../vitest.mutation.config.ts', import.meta.url).href}?load=${loads}`;
  return ((await import(/* @vite-ignore */ config)) as typeof import('../../vitest.mutation.config.js')).default;
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
