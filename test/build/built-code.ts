// The package's code as `npm run build` makes it (scripts/lib/build-code.mjs, both formats, without the
// declarations: about 2 s of CPU), in a folder under the repository's .artifacts/, so that its
// `import 'openapi-fetch'` resolves to the repository's node_modules as a consumer's would.
//
// Built once for the sources as they are, not once per test file: the folder is keyed by a hash of
// what the build reads (every file under src/ and scripts/lib/, the tsconfig files, the lock file of
// the packages it bundles, this file), so an edit to any of them makes a new build and an unchanged
// tree reuses it, in every worker of a run and in the next run (as the command line's bundle is,
// scripts/lib/cli-build.mjs). The first file to ask claims the build and makes it; the others wait for
// it to be renamed into place, or take the claim over if its process is gone.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCode } from '../../scripts/lib/build-code.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { alive } from '../cli/processes.js';

const ARTIFACTS = join(repoRoot, '.artifacts');
/** A build this much older than the newest is removed when a new one is made (another run may still use a recent one). */
const KEEP_MS = 24 * 60 * 60 * 1000;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The hash of what the build is made from. */
export async function codeSourceHash(root = repoRoot): Promise<string> {
  const hash = createHash('sha256');
  const inputs = [
    ...(await filesUnder(join(root, 'src'))),
    ...(await filesUnder(join(root, 'scripts', 'lib'))),
    ...['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'].map((name) => join(root, name)),
    fileURLToPath(import.meta.url),
  ];
  for (const file of inputs) {
    hash.update(relative(root, file).split(sep).join('/'));
    hash.update('\0');
    hash.update(await readFile(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function removeOldBuilds(keep: string): Promise<void> {
  const newest = (await stat(keep)).mtimeMs;
  for (const name of await readdir(ARTIFACTS)) {
    const path = join(ARTIFACTS, name);
    if (path === keep || !/^code-[0-9a-f]{16}$/.test(name)) continue;
    try {
      if (newest - (await stat(path)).mtimeMs > KEEP_MS) await rm(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/** The folder of the built code for the sources as they are now: built by the first caller, then shared. Not to be written to. */
export async function builtCode(): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const dir = join(ARTIFACTS, `code-${await codeSourceHash()}`);
  const claim = `${dir}.claim`;
  for (;;) {
    if (await exists(dir)) return dir;
    const claimed = await mkdir(claim).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
        return false;
      },
    );
    if (!claimed) {
      const owner = Number(await readFile(join(claim, 'owner'), 'utf8').catch(() => ''));
      // A claim whose process is gone (killed mid-build) is taken over; one just made has no owner yet.
      if (owner > 0 && !alive(owner)) await rm(claim, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      await writeFile(join(claim, 'owner'), String(process.pid));
      // Built aside, then renamed into place: a waiter never sees half a build.
      const staging = await mkdtemp(join(ARTIFACTS, '.code-staging-'));
      try {
        await buildCode({ outDir: staging, dts: false });
        await rename(staging, dir);
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
      await removeOldBuilds(dir);
      return dir;
    } finally {
      await rm(claim, { recursive: true, force: true });
    }
  }
}

/** A fresh folder beside the build for scripts a test runs against it; `remove` deletes it. */
export async function scriptsFolder(): Promise<{ dir: string; remove: () => Promise<void> }> {
  await mkdir(ARTIFACTS, { recursive: true });
  const dir = await mkdtemp(join(ARTIFACTS, 'build-scripts-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
