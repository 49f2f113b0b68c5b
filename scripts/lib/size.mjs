// The client's entry point as a consumer's bundler would ship it: minified ESM with code splitting,
// openapi-fetch and the generated validators inside, then gzipped. What counts against the budget is
// what a user who opts into nothing loads: the entry chunk and the chunks it imports statically.
// Chunks reached only by dynamic import (clientCredentials' token request, the logging code, the TLS
// fetch) load when a user opts in; they are measured and reported, not counted.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { join, relative } from 'node:path';
import { repoRoot } from './paths.mjs';

export const SIZE_BUDGET_GZIP_BYTES = 12 * 1024;

const OUT_DIR = join(repoRoot, '.artifacts', 'size');

const gzip = (contents) => gzipSync(contents, { level: 9 }).length;

/**
 * `gzipBytes`: the entry chunk and its static imports (transitively), each chunk gzipped as it is
 * served. `inputs`: the source files in those chunks, largest first. `lazyChunks`: every chunk only
 * reachable through a dynamic import, with its size and its largest inputs.
 */
export async function entrySize(entry = 'src/index.ts') {
  const result = await build({
    entryPoints: [join(repoRoot, entry)],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    outdir: OUT_DIR,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const files = new Map(result.outputFiles.map((file) => [relative(repoRoot, file.path), file.contents]));
  const entryName = Object.keys(outputs).find((name) => outputs[name].entryPoint);
  if (!entryName) throw new Error(`no entry chunk for ${entry}`);

  // The entry and everything it imports statically: what loads with `import … from 'baas-pix-contract'`.
  const eager = new Set();
  const visit = (name) => {
    if (eager.has(name)) return;
    eager.add(name);
    for (const imported of outputs[name].imports) if (imported.kind === 'import-statement' && outputs[imported.path]) visit(imported.path);
  };
  visit(entryName);

  const inputsOf = (names) =>
    [...names]
      .flatMap((name) => Object.entries(outputs[name].inputs).map(([path, info]) => ({ path, bytes: info.bytesInOutput })))
      .sort((a, b) => b.bytes - a.bytes);
  const eagerChunks = [...eager].map((name) => ({ name, minifiedBytes: files.get(name).length, gzipBytes: gzip(files.get(name)) }));
  const lazyChunks = Object.keys(outputs)
    .filter((name) => name.endsWith('.js') && !eager.has(name))
    .map((name) => ({ name, minifiedBytes: files.get(name).length, gzipBytes: gzip(files.get(name)), inputs: inputsOf([name]).slice(0, 4).map((i) => i.path) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);

  return {
    minifiedBytes: eagerChunks.reduce((sum, c) => sum + c.minifiedBytes, 0),
    gzipBytes: eagerChunks.reduce((sum, c) => sum + c.gzipBytes, 0),
    eagerChunks,
    inputs: inputsOf(eager),
    lazyChunks,
  };
}
