#!/usr/bin/env node
// `npm run build`: one tsup run gives dist/ both module formats of every entry point in
// scripts/lib/entries.mjs: ESM (.js + .d.ts) and CommonJS (.cjs + .d.cts); then the command line
// (ESM, with its shebang) and the bundled spec, copied as it is.
// `node scripts/build.mjs --out-dir <dir>` builds elsewhere, so the package tests never touch the
// dist/ another run may be packing at the same time.
import { access, copyFile, mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'tsup';
import { CLI_ENTRY, ENTRIES, SPEC_FILES, outputName } from './lib/entries.mjs';
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
  // import.meta.url in the CommonJS output becomes the file's own URL (src/testing/mock.ts needs it).
  shims: true,
  sourcemap: false,
  silent: true,
};

await rm(outDir, { recursive: true, force: true });
const entry = Object.fromEntries(Object.entries(ENTRIES).map(([subpath, source]) => [outputName(subpath), join(repoRoot, source)]));
await build({ ...common, entry, format: ['esm', 'cjs'], dts: true });
// The command's chunks (what it loads on demand: verify, the sandbox) go to dist/cli/, one level
// down like the entries, so that code finding the spec at `../generated/` from itself finds dist/generated/.
await build({
  ...common,
  entry: { cli: join(repoRoot, CLI_ENTRY) },
  format: ['esm'],
  dts: false,
  esbuildOptions(options) {
    options.chunkNames = 'cli/[name]-[hash]';
  },
});
await mkdir(join(outDir, 'generated'), { recursive: true });
for (const file of SPEC_FILES) await copyFile(join(repoRoot, 'src', 'generated', file), join(outDir, 'generated', file));
// The Arazzo description of verify's read-only checks, for `redocly respect` (its source description is ../generated/openapi.yaml).
await mkdir(join(outDir, 'verify'), { recursive: true });
await copyFile(join(repoRoot, 'src', 'verify', 'list-keys.arazzo.yaml'), join(outDir, 'verify', 'list-keys.arazzo.yaml'));
console.log(`built ${outDir}`);
