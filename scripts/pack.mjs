#!/usr/bin/env node
// `npm run tarball`: writes baas-pix-contract-<version>.tgz in the repository root, packed from a staged
// copy of the package (scripts/lib/stage.mjs) whose package.json has no development scripts. Publish
// that tarball: `npm publish baas-pix-contract-<version>.tgz`. Extra arguments go to `npm pack`
// (`npm run tarball -- --dry-run` lists the files and the unpacked size).
// `node scripts/pack.mjs --refuse` is the repository's `prepack`: a plain `npm pack` or `npm publish`
// here would ship the repository's package.json, development scripts and all, so it stops with a
// message saying what to run instead. (A git install never runs prepack: it runs `prepare`, which builds dist/.)
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stagePackage } from './lib/stage.mjs';

const args = process.argv.slice(2);
if (args[0] === '--refuse') {
  console.error(
    'npm pack and npm publish in the repository would ship its package.json with the development scripts.\n' +
      'Run `npm run tarball` instead (it writes the tarball here), then `npm publish <that tarball>`.',
  );
  process.exit(1);
}

const stage = await mkdtemp(join(tmpdir(), 'baas-stage-'));
try {
  await stagePackage(stage);
  // --ignore-scripts: the staged manifest has none, and dist/ is built already.
  const result = spawnSync('npm', ['pack', stage, '--ignore-scripts', '--pack-destination', process.cwd(), ...args], {
    stdio: 'inherit',
  });
  process.exitCode = result.status ?? 1;
} finally {
  await rm(stage, { recursive: true, force: true });
}
