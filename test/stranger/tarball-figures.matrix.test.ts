// A stranger reads "197 files, 1.2 MB packed (5.3 MB unpacked)" in the testing guide, runs
// `npm run tarball`, and npm says 1.3 MB and 5.5 MB. The figures of both guides are the tarball's, to the
// digit they are written with.
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

// npm's figures: decimal megabytes, one decimal.
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

it.each([
  ['docs/guides/testing.md', /lists (\d+) files, (\d+\.\d) MB packed\s+\((\d+\.\d) MB unpacked/],
  ['docs/guias/testing.md', /lista (\d+) arquivos, (\d+,\d) MB\s+empacotados \((\d+,\d) MB descompactados/],
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
  expect(packedMb!.replace(',', '.')).toBe(mb((await stat(packed.tarball)).size));
  expect(unpackedMb!.replace(',', '.')).toBe(mb(total));
});
