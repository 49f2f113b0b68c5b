#!/usr/bin/env node
// Part of `npm run check` (CI's .ci/run also reinstalls and diffs): the committed package-lock.json is
// what `npm install` makes of package.json (engines, peers, versions), and `npm ci` accepts it. npm
// recomputes the lock in a copy, offline where its cache allows, installing nothing. A script, not a
// test file: no test runs npm install (TESTING.md, "Two commands").
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './lib/paths.mjs';
import { run } from './lib/run.mjs';

const FLAGS = ['--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'];
const dir = await mkdtemp(join(tmpdir(), 'baas-lock-'));
try {
  for (const file of ['package.json', 'package-lock.json']) await copyFile(join(repoRoot, file), join(dir, file));
  await run('npm', ['install', '--package-lock-only', ...FLAGS], { cwd: dir });
  const [committed, recomputed] = await Promise.all(
    [repoRoot, dir].map((folder) => readFile(join(folder, 'package-lock.json'), 'utf8')),
  );
  if (recomputed !== committed) {
    console.error('npm install rewrites package-lock.json: run `npm install` and commit the lock file.');
    process.exit(1);
  }
  // npm ci checks more than npm install does: a lock that lacks an optional platform package the
  // registry could not serve when it was written (npm install drops those silently) passes the check
  // above and still makes `npm ci` refuse with "Missing: … from lock file".
  for (const file of ['package.json', 'package-lock.json']) await copyFile(join(repoRoot, file), join(dir, file));
  await run('npm', ['ci', '--dry-run', ...FLAGS], { cwd: dir }).catch((error) => {
    console.error(`npm ci refuses package-lock.json: run \`npm install\` and commit the lock file.\n${error.message}`);
    process.exit(1);
  });
  console.log('package-lock.json: in step with package.json, accepted by npm ci');
} finally {
  await rm(dir, { recursive: true, force: true });
}
