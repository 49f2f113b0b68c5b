#!/usr/bin/env node
// `npm run build`: dist/ gets every entry point of scripts/lib/entries.mjs and the command line.
// - ESM (.js + .d.ts): the entries and the command line in one pass, so they share their chunks: the
//   command's sandbox and verify are the code `./sandbox` and the entries load, not a copy.
// - CommonJS (.cjs + .d.cts): the entries again, for the `require` conditions (Jest, CommonJS
//   projects); a bin is run, never required, so the command line is ESM only.
// - dist/generated/: the bundled spec, copied as it is, and the response validators as one CommonJS
//   file (scripts/lib/shared-generated.mjs). The code of both formats reads them from there
//   (src/shipped-files.ts), so each is shipped once.
// `node scripts/build.mjs --out-dir <dir>` builds elsewhere, so the package tests never touch the
// dist/ another run may be packing at the same time.
import { access, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'tsup';
import { CLI_ENTRY, CLI_OUTPUT, ENTRIES, SPEC_FILES, outputName } from './lib/entries.mjs';
import { buildResponseValidators, sharedGenerated } from './lib/shared-generated.mjs';
import { repoRoot } from './lib/paths.mjs';

const { values } = parseArgs({ options: { 'out-dir': { type: 'string', default: 'dist' } } });
const outDir = resolve(repoRoot, values['out-dir']);

for (const file of SPEC_FILES) {
  await access(join(repoRoot, 'src', 'generated', file)).catch(() => {
    throw new Error(`src/generated/${file} is missing: run \`npm run generate\` first.`);
  });
}

const common = {
  outDir,
  target: 'node20',
  platform: 'node',
  tsconfig: join(repoRoot, 'tsconfig.build.json'),
  // Shared code goes to one chunk per format, so an error class is the same class from every entry.
  splitting: true,
  // import.meta.url in the CommonJS output becomes the file's own URL (src/bundled-spec.ts needs it).
  shims: true,
  sourcemap: false,
  // Whitespace only: names stay (stack traces and error names read as in the source), and the
  // tarball keeps under its 900 kB (about 120 kB less).
  minifyWhitespace: true,
  silent: true,
  esbuildPlugins: [sharedGenerated],
  // The sandbox's SHA-256 and HMAC (src/sandbox/cursor.ts, oauth.ts): bundled, only the modules it
  // imports, so the package gains no runtime dependency and its CommonJS build gets them as CommonJS
  // (@noble/hashes 2 is ES modules only). p-limit (updateMany's concurrency gate) and its yocto-queue
  // likewise: ES modules only, a few hundred bytes.
  noExternal: ['@noble/hashes', 'p-limit', 'yocto-queue'],
};

await rm(outDir, { recursive: true, force: true });
const entry = Object.fromEntries(
  Object.entries(ENTRIES).map(([subpath, source]) => [outputName(subpath), join(repoRoot, source)]),
);
await build({
  ...common,
  entry: { ...entry, [CLI_OUTPUT]: join(repoRoot, CLI_ENTRY) },
  format: ['esm'],
  dts: { entry },
});
// keepNames: tsup turns the ESM chunks into CommonJS with sucrase, which rewrites a class with fields
// into an anonymous `_class` expression, so `ApiError.name` (and `error.name`, `String(error)`, the
// stack) would read `_class`. esbuild names each function and class explicitly instead. The ESM
// output keeps its classes as they are and needs none of it (about 16 kB a format).
await build({ ...common, entry, format: ['cjs'], dts: true, keepNames: true });
await mkdir(join(outDir, 'generated'), { recursive: true });
for (const file of SPEC_FILES) {
  const from = join(repoRoot, 'src', 'generated', file);
  const to = join(outDir, 'generated', file);
  // The JSON spec without its indentation (a third of its size); the YAML as it is, for people to read.
  if (file.endsWith('.json')) await writeFile(to, JSON.stringify(JSON.parse(await readFile(from, 'utf8'))));
  else await copyFile(from, to);
}
await buildResponseValidators(outDir);
// The Arazzo description of verify's read-only checks, for `redocly respect` (its source description is ../generated/openapi.yaml).
await mkdir(join(outDir, 'verify'), { recursive: true });
await copyFile(
  join(repoRoot, 'src', 'verify', 'list-keys.arazzo.yaml'),
  join(outDir, 'verify', 'list-keys.arazzo.yaml'),
);
console.log(`built ${outDir}`);
