#!/usr/bin/env node
// `npm run build`: dist/ gets every entry point of scripts/lib/entries.mjs and the command line, built
// by scripts/lib/build-code.mjs (ESM and CommonJS, not minified, with source maps), and beside them:
// - dist/generated/: the bundled spec, copied as it is; the CommonJS sandbox reads it from there
//   (src/shipped-files.ts, scripts/lib/shared-generated.mjs);
// - dist/verify/: the Arazzo description of verify's read-only checks.
// `node scripts/build.mjs --out-dir <dir>` builds elsewhere, so the package tests never touch the
// dist/ another run may be packing at the same time.
import { access, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SPEC_FILES } from './lib/entries.mjs';
import { buildCode } from './lib/build-code.mjs';
import { repoRoot } from './lib/paths.mjs';

const { values } = parseArgs({ options: { 'out-dir': { type: 'string', default: 'dist' } } });
const outDir = resolve(repoRoot, values['out-dir']);

for (const file of SPEC_FILES) {
  await access(join(repoRoot, 'src', 'generated', file)).catch(() => {
    throw new Error(`src/generated/${file} is missing: run \`npm run generate\` first.`);
  });
}

await rm(outDir, { recursive: true, force: true });
await buildCode({ outDir });
await mkdir(join(outDir, 'generated'), { recursive: true });
for (const file of SPEC_FILES) {
  const from = join(repoRoot, 'src', 'generated', file);
  const to = join(outDir, 'generated', file);
  // The JSON spec without its indentation (a third of its size); the YAML as it is, for people to read.
  if (file.endsWith('.json')) await writeFile(to, JSON.stringify(JSON.parse(await readFile(from, 'utf8'))));
  else await copyFile(from, to);
}
// The Arazzo description of verify's read-only checks, for `redocly respect` (its source description is ../generated/openapi.yaml).
await mkdir(join(outDir, 'verify'), { recursive: true });
await copyFile(
  join(repoRoot, 'src', 'verify', 'list-keys.arazzo.yaml'),
  join(outDir, 'verify', 'list-keys.arazzo.yaml'),
);
console.log(`built ${outDir}`);
