// A stranger reads "197 files, 1.2 MB packed (5.3 MB unpacked)" in the testing guide, runs
// `npm run tarball`, and npm says 1.3 MB and 5.5 MB. The guides' file count is the tarball's; their sizes,
// written "about", are within 10 % of it (the bundle grows a little with most changes).
import { readdir, readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { run } from '../../scripts/lib/run.mjs';
import { sharedPack, type PackedTarball } from '../package/pack.js';

let packed: PackedTarball;
let unpacked: string;
beforeAll(async () => {
  packed = await sharedPack();
  unpacked = await mkdtemp(join(tmpdir(), 'tarball-figures-'));
  await run('tar', ['-xzf', packed.tarball, '-C', unpacked]);
}, 300_000);
afterAll(() => rm(unpacked, { recursive: true, force: true }));

// npm's figures are decimal megabytes; "about" is within 10 %.
const about = (stated: string, bytes: number) => Math.abs(Number(stated.replace(',', '.')) * 1e6 - bytes) / bytes;

it.each([
  ['docs/guides/testing.md', /lists (\d+) files, about (\d+\.\d) MB packed\s+\(about (\d+\.\d) MB unpacked/],
  [
    'docs/guias/testing.md',
    /lista (\d+) arquivos, cerca de (\d+,\d) MB\s+empacotados \(cerca de (\d+,\d) MB descompactados/,
  ],
])('%s states the tarball as npm packs it', async (document, figures) => {
  const text = await readFile(join(repoRoot, document), 'utf8');
  const [, files, packedMb, unpackedMb] = figures.exec(text) ?? [];
  expect(files, 'the figures sentence').toBeDefined();
  let total = 0;
  for (const path of await readdir(join(unpacked, 'package'), { recursive: true })) {
    const info = await stat(join(unpacked, 'package', path));
    if (info.isFile()) total += info.size;
  }
  expect(Number(files)).toBe(packed.files.length);
  expect(about(packedMb!, (await stat(packed.tarball)).size), 'packed').toBeLessThanOrEqual(0.1);
  expect(about(unpackedMb!, total), 'unpacked').toBeLessThanOrEqual(0.1);
});
