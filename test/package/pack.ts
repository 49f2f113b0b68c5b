// Builds and packs the package the way `npm publish` would, in the run's own folder: the repository's
// own dist/ is left alone, so concurrent runs (and people) never see it half-built.
//
// A build and pack costs ~13 s of CPU, and two test files need the tarball (test/package/consumer,
// test/size/tarball), which run in parallel workers. `sharedPack()` packs it once per run: the first
// file to ask claims the run's pack folder (global-setup.ts creates and removes it) and packs; the
// others wait for its record. A run that only needs other tests packs nothing.
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { run } from '../../scripts/lib/run.mjs';
import { stagePackage } from '../../scripts/lib/stage.mjs';
import { alive } from '../cli/processes.js';

export interface PackedTarball {
  /** Folder holding the tarball; the run's, not to be written to. */
  dir: string;
  tarball: string;
  /** Paths inside the tarball, as `npm pack --json` lists them. */
  files: string[];
  /** The package.json that was packed. */
  manifest: { exports: Record<string, string | Record<string, string>> } & Record<string, unknown>;
}

/** Packs into `dir` (created if needed). */
async function packInto(dir: string): Promise<PackedTarball> {
  const stage = join(dir, 'stage');
  // What `npm run tarball` packs: dist/ built there, README, LICENSE, package.json without its development fields.
  await stagePackage(stage);
  const output = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: stage });
  // npm may print warnings around its JSON.
  const [packed] = JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!packed) throw new Error(`npm pack printed no package:\n${output}`);
  const manifest = JSON.parse(await readFile(join(stage, 'package.json'), 'utf8')) as PackedTarball['manifest'];
  await rm(stage, { recursive: true, force: true });
  return { dir, tarball: join(dir, packed.filename), files: packed.files.map((f) => f.path).sort(), manifest };
}

const readRecord = (path: string): Promise<PackedTarball | undefined> =>
  readFile(path, 'utf8').then(
    (text) => JSON.parse(text) as PackedTarball,
    () => undefined,
  );

/**
 * The run's tarball, packed once. Waiting on another file's pack ends with its record, or, should
 * that worker die or its pack fail (it then removes its claim), with this file packing in its place.
 */
export async function sharedPack(): Promise<PackedTarball> {
  const dir = join(inject('packDir'), 'tarball');
  const record = join(dir, 'packed.json');
  const owner = join(dir, 'owner');
  for (;;) {
    const found = await readRecord(record);
    if (found) return found;
    const claimed = await mkdir(dir).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
        return false;
      },
    );
    if (claimed) {
      await writeFile(owner, String(process.pid));
      try {
        const packed = await packInto(dir);
        // Written whole, then renamed: a waiter never reads half a record.
        await writeFile(`${record}.tmp`, JSON.stringify(packed));
        await rename(`${record}.tmp`, record);
        return packed;
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
    // Someone else packs. The owner file follows the claim at once; a claim without one for a
    // minute, or whose owner has died, is abandoned.
    const pid = Number(await readFile(owner, 'utf8').catch(() => ''));
    const age = await stat(dir).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if ((pid > 0 && !alive(pid)) || (!pid && age > 60_000)) await rm(dir, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of the run's own, for fixtures several test files share (removed in teardown). */
    packDir: string;
  }
}
