// The tool cache: programs that only the matrix (`npm run test:all`) or mutation testing use — the
// runtimes (Bun, Deno, workerd), Jest, TypeScript 7, attw, Playwright, StrykerJS — stay out of the
// repository's devDependencies, so `npm ci` is light and prints no engine warning. Each tool is one
// folder, tools/<name>/, holding a package.json and the package-lock.json that pins its versions
// (both committed). `ensureTool(name)` installs it on first need with `npm ci` into
// tools/<name>/node_modules (git-ignored) and returns that folder; later calls find it installed.
//
// To add a tool: make tools/<name>/package.json with exact versions, run `npm install
// --package-lock-only` in that folder, commit both files, and call `ensureTool('<name>')` where it is
// needed. A tool that needs npm settings of its own keeps them in tools/<name>/.npmrc (StrykerJS's
// vitest runner uses the repository's vitest: `legacy-peer-deps`).
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './paths.mjs';

export const TOOLS_DIR = join(repoRoot, 'tools');

/** The names of the tools of the cache: the folders of tools/ with a package.json. */
export function toolNames() {
  return readdirSync(TOOLS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(TOOLS_DIR, entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort();
}

/** What an install is of: the manifest and the lock, so that a changed pin installs again. */
async function pinOf(dir) {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    hash.update(file);
    hash.update(await readFile(join(dir, file)).catch(() => ''));
  }
  return hash.digest('hex');
}

const STAMP = '.tool-pin';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * One installer at a time per tool, across processes (test files run in parallel workers): a lock
 * folder holding the installer's pid. A lock whose process is gone is taken over.
 */
async function withLock(dir, work) {
  const lock = join(dir, '.installing');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const pid = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      // No pid yet is a lock being made; only an old one without a pid is abandoned.
      if ((pid && !alive(pid)) || (!pid && age > 60_000)) await rm(lock, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    await writeFile(join(lock, 'pid'), String(process.pid));
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

const installs = new Map();

/**
 * The node_modules folder of tool `name`, installed from its lock file if it is not yet (or if its
 * pin changed). `log` receives one line when an install starts. Throws, saying what failed and how
 * to retry, when the tool is unknown or `npm ci` fails.
 */
export function ensureTool(name, { log = (line) => console.error(line) } = {}) {
  let install = installs.get(name);
  if (!install) {
    install = installTool(name, log);
    installs.set(name, install);
    install.catch(() => installs.delete(name));
  }
  return install;
}

async function installTool(name, log) {
  const dir = join(TOOLS_DIR, name);
  if (!existsSync(join(dir, 'package.json')))
    throw new Error(
      `Unknown tool "${name}": there is no tools/${name}/package.json. The tools are: ${toolNames().join(', ')}.`,
    );
  const modules = join(dir, 'node_modules');
  const pin = await pinOf(dir);
  const installed = () =>
    readFile(join(modules, STAMP), 'utf8').then(
      (text) => text === pin,
      () => false,
    );
  if (await installed()) return modules;
  return withLock(dir, async () => {
    if (await installed()) return modules;
    log(`Installing the tool ${name} into tools/${name}/node_modules (pinned by tools/${name}/package-lock.json)…`);
    const started = Date.now();
    await promisify(execFile)('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
      // The install runs outside any test's environment: no vitest or loader variables.
      env: Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(VITEST|NODE_OPTIONS$)/.test(key))),
    }).catch((error) => {
      throw new Error(
        `Could not install the tool ${name} (tools/${name}, pinned by its package-lock.json) with \`npm ci\`: ` +
          `${error.message}\n${error.stderr ?? ''}\nCheck the connection to the npm registry, then run ` +
          `\`npm run tools -- ${name}\`.`,
      );
    });
    await writeFile(join(modules, STAMP), pin);
    log(`Installed the tool ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return modules;
  });
}

/** The path of file `path` (e.g. 'jest/bin/jest.js') inside tool `name`, installed first if needed. */
export async function toolFile(name, path) {
  const file = join(await ensureTool(name), path);
  if (!existsSync(file))
    throw new Error(
      `The tool ${name} has no ${path}: its pin (tools/${name}/package-lock.json) no longer ships it; ` +
        'update the path here or the pin.',
    );
  return file;
}
