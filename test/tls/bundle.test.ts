// The production modules bundle for any platform: no static import of undici or a node: module
// (undici and node:tls load by dynamic import, through a variable, only when tls is set).
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

/** Bundles as a consumer's bundler does (code splitting on); returns every chunk's code and the inputs. */
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
  const all = result.outputFiles.map((f) => f.text).join('\n');
  return { all, inputs: Object.keys(result.metafile.inputs) };
}

describe('production modules in a neutral bundle', () => {
  it.each([
    ['the root entry', "export * from './src/index.ts';"],
    ['src/auth', "export { clientCredentials } from './src/auth/client-credentials.ts';"],
    [
      'src/tls',
      "export { createTlsFetch } from './src/tls/fetch.ts'; export { checkTlsOptions } from './src/tls/options.ts'; export { fromUrlInitFetch } from './src/tls/adapt.ts';",
    ],
    [
      'src/logging',
      "export { createEventLog } from './src/logging/event-log.ts'; export { parseRateLimit } from './src/logging/rate-limit.ts';",
    ],
  ])('%s builds without undici or node: modules', async (_name, entry) => {
    const { all, inputs } = await bundle(entry);
    expect(inputs.join('\n')).not.toMatch(/node_modules\/undici/);
    expect(all).not.toMatch(/from\s*["'](node:|undici)/);
    expect(all).not.toMatch(/import\(\s*["'](node:|undici)/);
  });
});
