// The root entry must load wherever a Worker runs, whatever its compatibility date or flags: bundled
// into one file as wrangler bundles a Worker (dynamic imports inlined, their static imports hoisted to
// the top), it imports no Node built-in module. What needs one (files, undici, a child process) loads it
// when used. The matrix test test/runtimes/worker-dates.matrix.test.ts runs such a bundle on workerd.
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFreshCode } from './built-code.js';

let built: Awaited<ReturnType<typeof buildFreshCode>>;
beforeAll(async () => {
  built = await buildFreshCode();
}, 120_000);
afterAll(() => built?.remove());

/** The Node built-in modules `entry` imports once bundled into one file for `platform`. */
async function builtinsOfBundle(entry: string, platform: 'neutral' | 'browser'): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    // Left for the runtime to provide, so that the bundle shows every one it would ask for.
    external: ['node:*'],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return [...code.matchAll(/(?:from|import\(?)\s*["'](node:[a-z_/]+)["']/g)].map((match) => match[1]!);
}

describe('the root entry, bundled into one file as a Worker is', () => {
  it.each(['neutral', 'browser'] as const)('for platform %s, imports no Node built-in module', async (platform) => {
    expect(await builtinsOfBundle(join(built.dir, 'index.js'), platform)).toEqual([]);
  });

  it('the same check finds the built-ins the command line needs (so an empty list means none)', async () => {
    expect(await builtinsOfBundle(join(built.dir, 'cli.js'), 'neutral')).toContain('node:child_process');
  });
});
