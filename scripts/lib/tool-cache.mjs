// Tools that only a matrix test needs (independent code generators, …) stay out of the package's
// own devDependencies: `npm ci` of the repository would otherwise install them for every everyday run.
// Each lives in tools/<name>/ as a package.json and a package-lock.json, and is installed on demand
// with `npm ci` into .tools/<name>/ (git-ignored), keyed by the lock file's hash, so every run uses the
// versions the lock pins. Run as a command (`node scripts/lib/tool-cache.mjs generators`) to install
// one ahead of time.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths.mjs';

const STAMP = '.installed-lock-sha256';

const run = (command, args, cwd) =>
  new Promise((resolvePromise, reject) => {
    // stdout stays free for the path when run as a command; npm's own output goes to stderr.
    const child = spawn(command, args, { cwd, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise(code));
  });

/**
 * The folder of tool `name` (tools/<name>/), installed from its lock file if it is not yet: its
 * `node_modules` holds exactly the lock's versions. Throws, saying how to install it, when npm fails
 * (no network, say).
 */
export async function installedTool(name) {
  const source = join(repoRoot, 'tools', name);
  const target = join(repoRoot, '.tools', name);
  const lock = await readFile(join(source, 'package-lock.json'));
  const hash = createHash('sha256')
    .update(lock)
    .update(await readFile(join(source, 'package.json')))
    .digest('hex');
  const installed = await readFile(join(target, STAMP), 'utf8').catch(() => '');
  if (installed === hash) return target;

  // A folder of its own, renamed into place once complete: a run cut short leaves no half install.
  const staging = `${target}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await copyFile(join(source, 'package.json'), join(staging, 'package.json'));
  await copyFile(join(source, 'package-lock.json'), join(staging, 'package-lock.json'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const code = await run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], staging);
  if (code !== 0) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(
      `Installing the tool "${name}" (tools/${name}/package-lock.json) with npm ci failed (exit ${code}). ` +
        `It needs the npm registry once; run \`node scripts/lib/tool-cache.mjs ${name}\` where the registry can be reached.`,
    );
  }
  await writeFile(join(staging, STAMP), hash);
  await rm(target, { recursive: true, force: true });
  await mkdir(join(repoRoot, '.tools'), { recursive: true });
  await rename(staging, target);
  return target;
}

/** The path of the JavaScript file behind `bin` of package `pkg` installed in `toolDir`, to run with `node`. */
export async function toolBin(toolDir, pkg, bin) {
  const folder = join(toolDir, 'node_modules', ...pkg.split('/'));
  const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
  if (!relative) throw new Error(`${pkg} has no bin "${bin}"`);
  return join(folder, relative);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const name = process.argv[2];
  if (!name) {
    console.error('usage: node scripts/lib/tool-cache.mjs <tool>   (a folder of tools/)');
    process.exit(2);
  }
  console.log(await installedTool(name));
}
