#!/usr/bin/env node
// `npm run release:tag`: records the current version as a release. From a clean work tree:
// 1. check:breaking against the previous release must pass;
// 2. writes releases/openapi-<version>.json (the baseline for clones without tags) and commits it
//    when it changed;
// 3. creates the annotated tag v<version> locally. Pushing the tag is yours to do; CI never pushes.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { baselineFile, findBaseline, RELEASES_DIR } from './lib/breaking.mjs';
import { repoRoot } from './lib/paths.mjs';

const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
const tag = `v${version}`;

if (git('status', '--porcelain').trim()) throw new Error('release:tag needs a clean work tree: commit or stash first.');
if (git('tag', '--list', tag).trim())
  throw new Error(
    `${tag} exists already: bump the version (package.json and openapi/openapi.yaml info.version) first.`,
  );
if (!(await readFile(join(repoRoot, 'CHANGELOG.md'), 'utf8')).includes(`## ${version}`))
  throw new Error(`CHANGELOG.md has no "## ${version}" section.`);

// The first release has nothing to be compared with; every later one must pass the check.
if (await findBaseline(repoRoot, version)) {
  process.stdout.write(
    execFileSync(process.execPath, [join(repoRoot, 'scripts/check-breaking.mjs')], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
}

const spec = await readFile(join(repoRoot, 'src/generated/openapi.json'), 'utf8');
const file = join(repoRoot, baselineFile(version));
const old = await readFile(file, 'utf8').catch(() => undefined);
if (old !== spec) {
  await mkdir(join(repoRoot, RELEASES_DIR), { recursive: true });
  await writeFile(file, spec);
  git('add', baselineFile(version));
  git('commit', '-m', `Release ${tag}: contract baseline ${baselineFile(version)}`);
}
git('tag', '-a', tag, '-m', `Release ${tag}`);
console.log(`tagged ${tag} (local; push it with \`git push origin ${tag}\`)`);
