// The client's entry point as a consumer's bundler would ship it: minified ESM with openapi-fetch
// and the generated validators inside, then gzipped.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

export const SIZE_BUDGET_GZIP_BYTES = 12 * 1024;

export async function entrySize() {
  const result = await build({
    entryPoints: [join(repoRoot, 'src/index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.entries(result.metafile.inputs)
    .map(([path, info]) => ({ path, bytes: info.bytes }))
    .sort((a, b) => b.bytes - a.bytes);
  return { minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, inputs };
}
