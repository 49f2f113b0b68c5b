// The two depths of a property (test/properties/depth.ts), and the mutation suite's full depth.
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_DEPTH_ENV, runsAt } from './depth.js';
import mutationConfig from '../../vitest.mutation.config.js';

describe('runsAt', () => {
  afterEach(() => {
    delete process.env[FULL_DEPTH_ENV];
  });

  it('runs a tenth of a property quick, at least the floor, and all of it full', () => {
    expect(runsAt('full', 200)).toBe(200);
    expect(runsAt('quick', 200)).toBe(20);
    expect(runsAt('quick', 40)).toBe(10);
    expect(runsAt('quick', 6)).toBe(6);
    expect(runsAt('quick', 300, 50)).toBe(50);
  });

  it('runs every depth full where the mutation suite asks, as its config does', () => {
    process.env[FULL_DEPTH_ENV] = 'full';
    expect(runsAt('quick', 200)).toBe(200);
    expect(mutationConfig.test?.env?.[FULL_DEPTH_ENV]).toBe('full');
  });
});
