// The production modules bundle for any platform: no static import of undici or a node: module
// (undici and node:tls load by dynamic import, through a variable, only when tls is set), and the
// TLS fetch is a lazy chunk, so a client without certificates does not ship it. Sizes are printed
// for the 12 kB budget of the entry.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

/** Bundles as a consumer's bundler does (code splitting on); returns the entry chunk and the lazy ones. */
async function bundle(contents: string) {
  const result = await build({
    stdin: { contents, resolveDir: repoRoot, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    splitting: true,
    outdir: '/virtual-out',
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [entry, ...lazy] = result.outputFiles.sort((a, b) => Number(!a.path.endsWith('entry.js')) - Number(!b.path.endsWith('entry.js')));
  const all = result.outputFiles.map((f) => f.text).join('\n');
  return { entry: entry!.text, lazy: lazy.map((f) => f.text), all, inputs: Object.keys(result.metafile.inputs), gzip: gzipSync(entry!.contents, { level: 9 }).length };
}

describe('production modules in a neutral bundle', () => {
  it.each([
    ['src/auth', "export { clientCredentials } from './src/auth/index.ts';"],
    ['src/tls', "export { createTlsFetch, checkTlsOptions, fromUrlInitFetch } from './src/tls/index.ts';"],
    ['src/logging', "export { createEventLog, parseRateLimit } from './src/logging/index.ts';"],
  ])('%s builds without undici or node: modules', async (name, entry) => {
    const { all, inputs, gzip } = await bundle(entry);
    console.log(`${name}: entry chunk ${gzip} B gzip`);
    expect(inputs.join('\n')).not.toMatch(/node_modules\/undici/);
    expect(all).not.toMatch(/from\s*["'](node:|undici)/);
    expect(all).not.toMatch(/import\(\s*["'](node:|undici)/);
  });

  it('clientCredentials ships the TLS fetch only as a lazy chunk', async () => {
    const { entry, lazy } = await bundle("export { clientCredentials } from './src/auth/index.ts';");
    expect(entry).not.toContain('buildConnector');
    expect(lazy.join('\n')).toContain('buildConnector');
  });

  it('the client entry with them added (for the budget)', async () => {
    const today = await bundle("export * from './src/index.ts';");
    const added = await bundle(
      "export * from './src/index.ts'; export { clientCredentials } from './src/auth/index.ts'; export { createEventLog, parseRateLimit } from './src/logging/index.ts'; export { checkTlsOptions } from './src/tls/options.ts';",
    );
    console.log(`entry today ${today.gzip} B gzip; with auth, logging and tls options ${added.gzip} B gzip (+${added.gzip - today.gzip} B)`);
    expect(added.entry).not.toContain('buildConnector');
  });
});
