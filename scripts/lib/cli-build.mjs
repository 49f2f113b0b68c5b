// The command line as the tests run it: src/cli/index.ts bundled once by esbuild into one ES module,
// then every test starts plain `node cli.mjs …` (test/support/cli.ts). Running the sources through
// `node --import tsx` instead transpiles the command line's whole module graph again in every child
// process: 0.7–0.9 s of CPU per start against 0.2 s for the bundle, and the tests start it hundreds
// of times a run.
//
// The build is keyed by a hash of what it is made from (every file under src/, the tsconfig files,
// esbuild's version and this file), so a change to the sources makes a new one and an up-to-date one
// is reused, by every worker of a run and by the next run. It lives in
// node_modules/.cache/baas-pix-contract/cli-<hash>/, inside the repository, so the packages it leaves
// external resolve from the repository's node_modules as they do for the sources, and beside it a
// generated/ folder holds the shipped spec files, as dist/generated/ does for the published bin
// (src/shipped-files.ts looks for the nearest generated/ above the code).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, version as esbuildVersion } from 'esbuild';
import { CLI_ENTRY, SPEC_FILES } from './entries.mjs';
import { repoRoot } from './paths.mjs';

const CACHE = join(repoRoot, 'node_modules', '.cache', 'baas-pix-contract');
/** A build this much older than the newest is removed when a new one is made (another run may still use a recent one). */
const KEEP_MS = 24 * 60 * 60 * 1000;

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The hash of everything the build is made from: `root`'s src/ and tsconfig files, esbuild's version, this file. */
export function cliSourceHash(root = repoRoot) {
  const hash = createHash('sha256');
  hash.update(`esbuild ${esbuildVersion}\0`);
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  const inputs = [...filesUnder(join(root, 'src')), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json')];
  for (const file of inputs) {
    hash.update(relative(root, file).split(sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of the bundled command line for the sources as they are now: an existing build of the same
 * hash, or a new one. Synchronous (a few milliseconds when the build exists, about half a second of
 * esbuild when it does not), so a test helper can call it where it spawns.
 */
export function builtCli() {
  const dir = join(CACHE, `cli-${cliSourceHash()}`);
  const file = join(dir, 'cli.mjs');
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  // Built in a folder of its own, then renamed into place: a worker never sees half a build, and two
  // workers that build at once both end with the same complete one.
  const staging = join(CACHE, `.staging-${process.pid}-${Math.random().toString(16).slice(2)}`);
  try {
    buildSync({
      entryPoints: [join(repoRoot, CLI_ENTRY)],
      outfile: join(staging, 'cli.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      tsconfig: join(repoRoot, 'tsconfig.build.json'),
      // The dependencies load from node_modules, as they do for the sources and the published bin.
      packages: 'external',
      sourcemap: true,
      logLevel: 'error',
    });
    mkdirSync(join(staging, 'generated'));
    for (const name of SPEC_FILES)
      copyFileSync(join(repoRoot, 'src', 'generated', name), join(staging, 'generated', name));
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another process put the same build there first.
      if (!existsSync(file)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  removeOldBuilds(dir);
  return file;
}

function removeOldBuilds(keep) {
  const newest = statSync(keep).mtimeMs;
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path === keep || !name.startsWith('cli-')) continue;
    try {
      if (newest - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

// `node scripts/lib/cli-build.mjs`: builds (or finds) it and prints its path.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(builtCli());
