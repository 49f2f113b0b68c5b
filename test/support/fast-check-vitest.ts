// What `import { fc, test } from '@fast-check/vitest'` loads in this repository's vitest runs (the
// alias FAST_CHECK_VITEST of vitest.config.ts, which the matrix and mutation configs use too): `fc`, and
// vitest's own `test` with `test.prop(arbitraries, params)(name, property, timeout)`, the one form of
// @fast-check/vitest the tests use. The type checker still reads @fast-check/vitest's declarations.
//
// Why not the package itself: @fast-check/vitest 0.5.0 builds, when it loads, a `.prop` for every chain
// of vitest 4's test modifiers (`test.skip.only.concurrent.fails…`, each permutation of six, thousands of
// chains): 2.1 s of CPU for each module graph that imports it, which in `npm test` is every worker of
// the pure, process and prism projects that runs one of its nine files. Here `.prop` is made when a test
// reads it, on the chain it reads it from.
//
// `test.prop` runs as the package's does: the test is named `name (with seed=…)`, the seed is the
// params' or fast-check's global one or a random one, `interruptAfterTimeLimit` defaults to the global
// one, and `fc.assert` runs the property over the arbitraries with the params, so a counterexample
// fails the test with fast-check's report. What the tests do not use is refused by name, never run
// differently: the record form (`test.prop({ a: arb })`), and a property in a suite with
// beforeEach/afterEach hooks (which the package runs around each of the property's runs).
import * as fc from 'fast-check';
import { type TestAPI, TestRunner, test as vitestTest } from 'vitest';

type Property = (...values: any[]) => unknown;
type TestFn = (name: string, fn: () => Promise<void>, timeout?: number) => unknown;

/** The `.prop` of one chain of vitest's test (`test`, `test.skip`, `test.concurrent.only`, …). */
export function propOf(testFn: TestFn) {
  return (arbitraries: readonly fc.Arbitrary<unknown>[], params: fc.Parameters<any> = {}) => {
    if (!Array.isArray(arbitraries))
      throw new Error(
        'test.prop({ … }): the record form of @fast-check/vitest is not in test/support/fast-check-vitest.ts; pass an array of arbitraries',
      );
    return (name: string, property: Property, timeout?: number): void => {
      const config = fc.readConfigureGlobal();
      const runParams: fc.Parameters<any> = {
        ...params,
        seed: params.seed ?? config.seed ?? Date.now() ^ (Math.random() * 4294967296),
      };
      const interruptAfterTimeLimit = params.interruptAfterTimeLimit ?? config.interruptAfterTimeLimit;
      if (interruptAfterTimeLimit !== undefined) runParams.interruptAfterTimeLimit = interruptAfterTimeLimit;
      const asyncProperty = (fc.asyncProperty as (...args: unknown[]) => fc.IAsyncPropertyWithHooks<unknown[]>)(
        ...arbitraries,
        (...values: unknown[]) => Promise.resolve(property(...values)),
      );
      testFn(
        `${name} (with seed=${runParams.seed})`,
        async () => {
          refuseHooks(name);
          await fc.assert(asyncProperty, runParams);
        },
        timeout,
      );
    };
  };
}

/** @fast-check/vitest runs the suite's beforeEach/afterEach hooks around each run; this module does not, and says so. */
function refuseHooks(name: string): void {
  const running = TestRunner.getCurrentTest();
  // The test's suites up to its file (a file is a suite too, whose hooks are the top-level ones).
  for (
    let suite = running?.suite ?? running?.file;
    suite;
    suite = 'filepath' in suite ? undefined : (suite.suite ?? suite.file)
  ) {
    const hooks = TestRunner.getSuiteHooks(suite);
    if (hooks.beforeEach.length > 0 || hooks.afterEach.length > 0)
      throw new Error(
        `test.prop('${name}'): its suite has beforeEach/afterEach hooks, which @fast-check/vitest runs around each run of the property and test/support/fast-check-vitest.ts does not`,
      );
  }
}

/** A chain of vitest's test with `.prop` on it and on each chain reached from it, made when read. */
function withProp<T extends object>(chain: T): T {
  return new Proxy(chain, {
    get(target, key) {
      if (key === 'prop') return propOf(target as unknown as TestFn);
      const value: unknown = Reflect.get(target, key);
      // A test API (it has `each`) reached through a modifier: `.skip`, `.only`, `.concurrent`, ….
      return key !== 'each' && typeof value === 'function' && 'each' in value ? withProp(value) : value;
    },
  });
}

export const test = withProp(vitestTest) as TestAPI & { prop: ReturnType<typeof propOf> };
export const it = test;
export { fc };
