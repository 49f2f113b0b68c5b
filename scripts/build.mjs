#!/usr/bin/env node
// `npm run build`: dist/ with ESM JavaScript and .d.ts from src/, plus the generated files tsc
// does not emit (the standalone validators and the bundled spec).
// `node scripts/build.mjs --out-dir <dir>` builds elsewhere, so the package tests never touch the
// dist/ another run may be packing at the same time.
import { access, copyFile, mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { run } from './lib/run.mjs';
import { repoRoot } from './lib/paths.mjs';

const { values } = parseArgs({ options: { 'out-dir': { type: 'string', default: 'dist' } } });
const outDir = resolve(repoRoot, values['out-dir']);

// Shipped as they are: tsc (allowJs off in tsconfig.build.json) does not emit them.
const COPIED = ['validators.js', 'validators.d.ts', 'response-validators.js', 'response-validators.d.ts', 'openapi.yaml', 'openapi.json'];
for (const file of COPIED) {
  await access(join(repoRoot, 'src', 'generated', file)).catch(() => {
    throw new Error(`src/generated/${file} is missing: run \`npm run generate\` first.`);
  });
}

await rm(outDir, { recursive: true, force: true });
await run(join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir]);
await mkdir(join(outDir, 'generated'), { recursive: true });
for (const file of COPIED) await copyFile(join(repoRoot, 'src', 'generated', file), join(outDir, 'generated', file));
// The Arazzo description of verify's read-only checks, for `redocly respect` (its source description is ../generated/openapi.yaml).
await copyFile(join(repoRoot, 'src', 'verify', 'list-keys.arazzo.yaml'), join(outDir, 'verify', 'list-keys.arazzo.yaml'));
console.log(`built ${outDir}`);
