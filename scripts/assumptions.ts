// Prints the README's assumptions table from the spec: `npm run assumptions`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assumptionsTable } from '../src/cli/assumptions.js';
import { repoRoot } from './lib/paths.mjs';

const spec: unknown = JSON.parse(await readFile(join(repoRoot, 'src/generated/openapi.json'), 'utf8'));
console.log(assumptionsTable(spec));
