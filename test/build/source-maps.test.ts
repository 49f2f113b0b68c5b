// The source maps the build writes name their sources by the shortest path from the map to the file:
// `../src/client/call.ts` from dist/, never a way through the file system's root
// (`../../../work/main/src/…`), which in a user's node_modules is the build machine's folder layout
// in every stack trace read through the maps (scripts/lib/build-code.mjs: relativeSources).
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { builtCode } from './built-code.js';

describe('the source maps of the built code', () => {
  it('name each source by the shortest relative path, to a file of the repository', async () => {
    const dir = await builtCode();
    const maps = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.map'));
    expect(maps.length, 'the build writes source maps').toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const file of maps) {
      const here = dirname(join(dir, file));
      const { sources } = JSON.parse(await readFile(join(dir, file), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const target = resolve(here, source);
        const shortest = relative(here, target).split(sep).join('/');
        if (source !== shortest || !target.startsWith(repoRoot + sep)) wrong.push(`${file}: ${source}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
