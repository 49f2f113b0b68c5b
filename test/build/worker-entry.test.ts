// The root entry must load wherever a Worker runs, whatever its compatibility date or flags: bundled
// into one file as wrangler bundles a Worker (dynamic imports inlined, their static imports hoisted to
// the top), it imports no Node built-in module. What needs one (files, undici, a child process) loads it
// when used. The matrix test test/runtimes/worker-dates.matrix.test.ts runs such a bundle on workerd.
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtCode } from './built-code.js';

/** The code as the build makes it, made once for the sources as they are (./built-code.ts). */
let built: string;
beforeAll(async () => {
  built = await builtCode();
});

/** Whether `path` names a Node built-in module: `node:` and anything, or a bare name such as `stream`, exactly
 * (`string_decoder/` is the npm package of that name, bundled as any other). */
const isNodeBuiltin = (path: string): boolean => path.startsWith('node:') || builtinModules.includes(path);

/** Leaves every Node built-in for the runtime to provide, so that the bundle shows every one it would ask for. */
const builtinsExternal: Plugin = {
  name: 'node-builtins-external',
  setup(build) {
    build.onResolve({ filter: /.*/ }, ({ path }) => (isNodeBuiltin(path) ? { path, external: true } : undefined));
  },
};

/**
 * The Node built-in modules `entry` imports once bundled into one file for `platform`, each named with
 * `node:`. Read from the bundle's import records (static and dynamic imports and `require` calls), so that
 * a package's bare `require('stream')` counts as much as our own `import 'node:fs'`.
 */
async function builtinsOfBundle(entry: string, platform: 'neutral' | 'browser'): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform,
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    plugins: [builtinsExternal],
    logLevel: 'silent',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
  const builtins = imports.filter((record) => record.external).map((record) => record.path);
  for (const name of builtins) expect(isNodeBuiltin(name), `${name} is a Node built-in`).toBe(true);
  return [...new Set(builtins.map((name) => (name.startsWith('node:') ? name : `node:${name}`)))];
}

describe('the root entry, bundled into one file as a Worker is', () => {
  it.each(['neutral', 'browser'] as const)('for platform %s, imports no Node built-in module', async (platform) => {
    expect(await builtinsOfBundle(join(built, 'index.js'), platform)).toEqual([]);
  });

  it('the same check finds the built-ins the command line needs (so an empty list means none)', async () => {
    expect(await builtinsOfBundle(join(built, 'cli.js'), 'neutral')).toContain('node:child_process');
  });
});
