// test/support/fast-check-vitest.ts, which `@fast-check/vitest` loads in this repository's runs: a
// property test registered, run and failed as the package's, and what it does not do refused.
import { fc, test as fcTest } from '@fast-check/vitest';
import { beforeEach, describe, expect, it } from 'vitest';
import * as shim from './fast-check-vitest.js';

/** The test a `.prop` registers, taken instead of given to vitest. */
function registered(
  arbitraries: fc.Arbitrary<unknown>[],
  params: fc.Parameters<any>,
  property: (...v: any[]) => unknown,
) {
  let found: { name: string; run: () => Promise<void>; timeout: number | undefined } | undefined;
  shim.propOf((name, run, timeout) => {
    found = { name, run, timeout };
  })(arbitraries, params)('a property', property, 1234);
  return found!;
}

describe('test.prop from @fast-check/vitest', () => {
  it('is this module (the alias of vitest.config.ts)', () => {
    expect(fcTest).toBe(shim.test);
    expect(typeof fcTest.skip.prop).toBe('function');
  });

  it('names the test with its seed and runs the property numRuns times over the arbitraries', async () => {
    const seen: [number, string][] = [];
    const test = registered([fc.nat(9), fc.constantFrom('a', 'b')], { seed: 42, numRuns: 17 }, (n, s) => {
      seen.push([n, s]);
    });
    expect(test.name).toBe('a property (with seed=42)');
    expect(test.timeout).toBe(1234);
    await test.run();
    expect(seen).toHaveLength(17);
    expect(seen.every(([n, s]) => n >= 0 && n <= 9 && ['a', 'b'].includes(s))).toBe(true);
  });

  it('runs the examples first, and a seed of its own when none is given', async () => {
    const seen: number[] = [];
    const test = registered([fc.nat()], { numRuns: 3, examples: [[777_777]] }, (n) => {
      seen.push(n);
    });
    expect(test.name).toMatch(/^a property \(with seed=-?\d+\)$/);
    await test.run();
    expect(seen[0]).toBe(777_777);
  });

  it('fails with fast-check’s counterexample, sync or async', async () => {
    const sync = registered([fc.nat(100)], { seed: 7 }, (n) => {
      expect(n).toBeLessThan(50);
    });
    await expect(sync.run()).rejects.toThrow(/Counterexample: \[50\]/);
    const async = registered([fc.nat(100)], { seed: 7 }, async (n) => n < 50);
    await expect(async.run()).rejects.toThrow(/Property failed/);
  });

  it('refuses the record form by name', () => {
    expect(() => shim.test.prop({ a: fc.nat() } as never)).toThrow(/record form/);
  });

  fcTest.prop([fc.integer(), fc.integer()], { seed: 3, numRuns: 20 })('runs through vitest as a test', (a, b) => {
    expect(a + b).toBe(b + a);
  });
});

describe('in a suite with beforeEach hooks', () => {
  beforeEach(() => {});
  it('refuses to run, rather than run them once for all the runs', async () => {
    const test = registered([fc.nat()], { seed: 1 }, () => {});
    await expect(test.run()).rejects.toThrow(/beforeEach\/afterEach/);
  });
});
