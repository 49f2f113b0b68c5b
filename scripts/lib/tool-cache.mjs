// The code generators' view of the tool cache (scripts/lib/tools.mjs, which installs every tool of
// tools/<name>/ from its lock file into tools/<name>/node_modules): the tool's folder, and the file
// behind a package's bin. Run as a command (`node scripts/lib/tool-cache.mjs generators`) to install
// one ahead of time (`npm run tools -- generators` does the same).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureTool } from './tools.mjs';

/**
 * The folder of tool `name` (tools/<name>/), its `node_modules` installed from its lock file if it is
 * not yet. One installer for every tool: scripts/lib/tools.mjs (`ensureTool`), whose errors say how
 * to install it by hand.
 */
export async function installedTool(name) {
  return dirname(await ensureTool(name));
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
