// Builds and packs the package the way `npm publish` would, in a temporary folder: the repository's
// own dist/ is left alone, so concurrent runs (and people) never see it half-built.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../scripts/lib/run.mjs';
import { stagePackage } from '../../scripts/lib/stage.mjs';

export interface Packed {
  /** Temporary folder holding the tarball; remove it with `cleanup()`. */
  dir: string;
  tarball: string;
  /** Paths inside the tarball, as `npm pack --json` lists them. */
  files: string[];
  /** The package.json that was packed. */
  manifest: { exports: Record<string, string | Record<string, string>> } & Record<string, unknown>;
  cleanup(): Promise<void>;
}

export async function packPackage(): Promise<Packed> {
  const dir = await mkdtemp(join(tmpdir(), 'baas-pack-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
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
    const manifest = JSON.parse(await readFile(join(stage, 'package.json'), 'utf8')) as Packed['manifest'];
    return { dir, tarball: join(dir, packed.filename), files: packed.files.map((f) => f.path).sort(), manifest, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
