#!/usr/bin/env node
// Prints the README's assumptions table from the spec: `npm run assumptions`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { collectAssumptions } from './lib/assumptions.mjs';
import { repoRoot } from './lib/paths.mjs';

const spec = JSON.parse(await readFile(join(repoRoot, 'src/generated/openapi.json'), 'utf8'));
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
console.log('| Not shown in the description | Choice in this contract | Why |');
console.log('|---|---|---|');
for (const a of collectAssumptions(spec)) console.log(`| ${cell(a.notShown)} | ${cell(a.choice)} | ${cell(a.why)} |`);
