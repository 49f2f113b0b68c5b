// The package as it is shipped, staged in a folder of its own: dist/ built there, README.md, LICENSE
// and the documents `files` lists (scripts/lib/shipped-docs.mjs), and a package.json without the
// development fields. Both `npm run tarball` (scripts/pack.mjs)
// and the package tests (test/package/pack.ts) pack what this stages, so the tests check the tarball
// that is published.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';
import { stageDocuments } from './shipped-docs.mjs';
import { run } from './run.mjs';

/**
 * Fields of the repository's package.json that only its development uses. The scripts run files of
 * scripts/ and src/, which are not shipped, and npm 11 lists `prepare` among a dependency's "install
 * scripts not yet covered by allowScripts" when the tarball is installed; allowScripts is the
 * repository's own install policy, which npm reads only in the project being installed.
 */
export const DEVELOPMENT_FIELDS = ['scripts', 'allowScripts'];

/** The manifest that is shipped: the repository's, without its development fields. */
export function shippedManifest(manifest) {
  return Object.fromEntries(Object.entries(manifest).filter(([key]) => !DEVELOPMENT_FIELDS.includes(key)));
}

/** Writes the package into `stage` (created if needed), ready for `npm pack <stage>`. */
export async function stagePackage(stage) {
  await mkdir(stage, { recursive: true });
  // What npm takes from the package root besides `files`; the README is written by stageDocuments.
  await copyFile(join(repoRoot, 'LICENSE'), join(stage, 'LICENSE'));
  const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
  await stageDocuments(stage, manifest);
  await writeFile(join(stage, 'package.json'), `${JSON.stringify(shippedManifest(manifest), null, 2)}\n`);
  await run(process.execPath, [join(repoRoot, 'scripts/build.mjs'), '--out-dir', join(stage, 'dist')]);
}
