// The code of dist/: every entry of scripts/lib/entries.mjs and the command line, as tsup builds them.
// - ESM (.js + .d.ts): the entries and the command line in one pass, so they share their chunks: the
//   command's sandbox and verify are the code `./sandbox` and the entries load, not a copy.
// - CommonJS (.cjs + .d.cts): the entries again, for the `require` conditions (Jest, CommonJS
//   projects); a bin is run, never required, so the command line is ESM only.
// Not minified, with source maps: an uncaught error prints its throw site as one readable line, not a
// whole minified file before its message (issue 28). scripts/build.mjs adds the shipped files;
// test/build/ builds the code alone (`dts: false`) into a folder of its own.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'tsup';
import { CLI_ENTRY, CLI_OUTPUT, ENTRIES, outputName } from './entries.mjs';
import { repoRoot } from './paths.mjs';
import { sharedGenerated } from './shared-generated.mjs';

/** Builds the ESM and CommonJS code (and, with `dts`, the declarations) into `outDir`. */
export async function buildCode({ outDir, dts = true }) {
  const common = {
    outDir,
    target: 'node20',
    platform: 'node',
    tsconfig: join(repoRoot, 'tsconfig.build.json'),
    // Shared code goes to one chunk per format, so an error class is the same class from every entry.
    splitting: true,
    // import.meta.url in the CommonJS output becomes the file's own URL (src/shipped-files.ts needs it).
    shims: true,
    sourcemap: true,
    // `node:fs`, not `fs`: a Worker's bundler resolves the prefixed name to the runtime's module, where
    // a bare `fs` would have to be aliased back first (tsup strips the prefix unless told not to).
    removeNodeProtocol: false,
    silent: true,
    esbuildPlugins: [sharedGenerated],
    // The sandbox's SHA-256 and HMAC (src/sandbox/cursor.ts, oauth.ts): bundled, only the modules it imports, so
    // the package gains no runtime dependency and its CommonJS build gets them as CommonJS (@noble/hashes 2
    // is ES modules only). p-limit (updateMany's concurrency gate) and its yocto-queue likewise.
    noExternal: ['@noble/hashes', 'p-limit', 'yocto-queue'],
  };
  const entry = Object.fromEntries(
    Object.entries(ENTRIES).map(([subpath, source]) => [outputName(subpath), join(repoRoot, source)]),
  );
  await build({
    ...common,
    entry: { ...entry, [CLI_OUTPUT]: join(repoRoot, CLI_ENTRY) },
    format: ['esm'],
    dts: dts && { entry },
  });
  // keepNames: tsup turns the ESM chunks into CommonJS with sucrase, which rewrites a class with fields
  // into an anonymous `_class` expression, so `BaasApiError.name` (and `error.name`, `String(error)`, the
  // stack) would read `_class`. esbuild names each function and class explicitly instead.
  await build({ ...common, entry, format: ['cjs'], dts, keepNames: true });
  await relativeSources(outDir);
}

/**
 * Every source map names its sources relative to itself (`../src/client/call.ts`). esbuild writes some
 * chunks' sources through the file system's root (`../../../work/main/src/…` from /work/main/dist), which
 * resolves here but, in a user's node_modules, is the build machine's folder layout in every stack trace
 * read through the maps. Same files, the shortest relative path; the map's `sourcesContent` is kept.
 */
async function relativeSources(outDir) {
  for (const file of await readdir(outDir, { recursive: true })) {
    if (!file.endsWith('.map')) continue;
    const path = join(outDir, file);
    const map = JSON.parse(await readFile(path, 'utf8'));
    const here = dirname(path);
    const sources = map.sources.map((source) => relative(here, resolve(here, source)).split(sep).join('/'));
    if (sources.some((source, index) => source !== map.sources[index]))
      await writeFile(path, JSON.stringify({ ...map, sources }));
  }
}
