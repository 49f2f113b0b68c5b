// The package's code as `npm run build` makes it (scripts/lib/build-code.mjs, both formats, without the
// declarations, a couple of seconds), in a folder of its own under the repository's .artifacts/, so
// that its `import 'openapi-fetch'` resolves to the repository's node_modules as a consumer's would.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildCode } from '../../scripts/lib/build-code.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

/** Builds the code into a fresh folder; `remove` deletes it and `<dir>-scripts`, for scripts run beside it. */
export async function buildFreshCode(): Promise<{ dir: string; remove: () => Promise<void> }> {
  await mkdir(join(repoRoot, '.artifacts'), { recursive: true });
  const dir = await mkdtemp(join(repoRoot, '.artifacts', 'build-'));
  await buildCode({ outDir: dir, dts: false });
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(`${dir}-scripts`, { recursive: true, force: true });
  };
  return { dir, remove };
}
