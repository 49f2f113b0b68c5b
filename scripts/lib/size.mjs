// The client's entry point as a consumer's bundler would ship it: minified ESM with code splitting.
// It tells what loads with the entry (its chunk and the chunks it imports statically) from what loads
// only by dynamic import (test/size/drift-lazy.test.ts: the response validators). Sizes are reported
// for reading; no budget is enforced on them (the tarball's size is, in
// test/size/tarball.matrix.test.ts).
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { join, relative } from 'node:path';
import { repoRoot } from './paths.mjs';

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
    absWorkingDir: repoRoot,
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
  // Chunks of dynamically imported modules carry an entryPoint too: the entry is the one of `entry`.
  const entryName = Object.keys(outputs).find((name) => outputs[name].entryPoint === entry);
  if (!entryName) throw new Error(`no entry chunk for ${entry}`);

  // The entry and everything it imports statically: what loads with `import … from 'baas-pix-contract'`.
  const eager = new Set();
  const visit = (name) => {
    if (eager.has(name)) return;
    eager.add(name);
    for (const imported of outputs[name].imports)
      if (imported.kind === 'import-statement' && outputs[imported.path]) visit(imported.path);
  };
  visit(entryName);

  const inputsOf = (names) =>
    [...names]
      .flatMap((name) =>
        Object.entries(outputs[name].inputs).map(([path, info]) => ({ path, bytes: info.bytesInOutput })),
      )
      .sort((a, b) => b.bytes - a.bytes);
  const eagerChunks = [...eager].map((name) => ({
    name,
    minifiedBytes: files.get(name).length,
    gzipBytes: gzip(files.get(name)),
  }));
  const lazyChunks = Object.keys(outputs)
    .filter((name) => name.endsWith('.js') && !eager.has(name))
    .map((name) => ({
      name,
      minifiedBytes: files.get(name).length,
      gzipBytes: gzip(files.get(name)),
      inputs: inputsOf([name])
        .slice(0, 4)
        .map((i) => i.path),
    }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);

  return {
    minifiedBytes: eagerChunks.reduce((sum, c) => sum + c.minifiedBytes, 0),
    gzipBytes: eagerChunks.reduce((sum, c) => sum + c.gzipBytes, 0),
    eagerChunks,
    inputs: inputsOf(eager),
    lazyChunks,
  };
}
