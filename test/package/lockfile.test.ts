// The committed package-lock.json is what `npm install` makes of package.json: installing in a fresh
// clone must not rewrite it (engines, peers, versions). npm recomputes the lock in a copy, offline
// where its cache allows, without installing anything.
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

let dir: string | undefined;
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

describe('package-lock.json', () => {
  it('is in step with package.json: npm install leaves it byte for byte as committed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'baas-lock-'));
    for (const file of ['package.json', 'package-lock.json']) await copyFile(join(repoRoot, file), join(dir, file));
    await run(
      'npm',
      ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: dir },
    );
    const [committed, recomputed] = await Promise.all([
      readFile(join(repoRoot, 'package-lock.json'), 'utf8'),
      readFile(join(dir, 'package-lock.json'), 'utf8'),
    ]);
    expect(
      recomputed === committed,
      'npm install rewrites package-lock.json: run `npm install` and commit the lock file',
    ).toBe(true);
  }, 120_000);

  // npm ci checks more than npm install does: a lock that lacks an optional platform package that
  // the registry could not serve when it was written (npm install drops those silently) passes the
  // check above and still makes `npm ci` refuse with "Missing: … from lock file".
  it('is accepted by npm ci (every optional platform package listed)', async () => {
    dir ??= await mkdtemp(join(tmpdir(), 'baas-lock-'));
    for (const file of ['package.json', 'package-lock.json']) await copyFile(join(repoRoot, file), join(dir, file));
    await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: dir,
    });
  }, 120_000);
});
