#!/usr/bin/env node
// `npm run build`: dist/ with ESM JavaScript and .d.ts from src/, plus the generated files tsc
// does not emit (the standalone validators and the bundled spec).
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './lib/run.mjs';
import { repoRoot } from './lib/paths.mjs';

const dist = join(repoRoot, 'dist');
await rm(dist, { recursive: true, force: true });
await run(join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json']);
await mkdir(join(dist, 'generated'), { recursive: true });
for (const file of ['validators.js', 'validators.d.ts', 'openapi.yaml', 'openapi.json']) {
  await copyFile(join(repoRoot, 'src', 'generated', file), join(dist, 'generated', file));
}
console.log('built dist/');
