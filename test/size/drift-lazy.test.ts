// Response validation must cost nothing to users who leave it off: the generated response
// validators are not in the client entry, and the drift module reaches them only through a dynamic
// import, which a splitting bundler puts in a chunk of its own.
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { entrySize } from '../../scripts/lib/size.mjs';

describe('response validators load lazily', () => {
  it('are not in the client entry: validateResponses reaches them, and the checker, only by dynamic import', async () => {
    const { inputs, lazyChunks } = await entrySize();
    const eager = inputs.map((i: { path: string }) => i.path).join('\n');
    expect(eager).not.toMatch(/response-validators|src\/drift\//);
    // The client's hook is in the entry; what it loads is not.
    expect(eager).toMatch(/src\/client\/answer-check\.ts/);
    const lazy = lazyChunks.flatMap((c: { inputs: string[] }) => c.inputs).join('\n');
    expect(lazy).toMatch(/generated\/response-validators\.js/);
    expect(lazy).toMatch(/src\/drift\/answer\.ts/);
  });

  it('sit in their own chunk when src/drift is bundled with splitting', async () => {
    const result = await build({
      entryPoints: [join(repoRoot, 'src/drift/index.ts')],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'neutral',
      outdir: join(repoRoot, '.artifacts', 'drift-lazy'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs);
    const entry = outputs.find(([, o]) => o.entryPoint?.endsWith('src/drift/index.ts'));
    expect(entry).toBeDefined();
    const entryInputs = Object.keys(entry![1].inputs).join('\n');
    expect(entryInputs).not.toMatch(/response-validators/);
    expect(entry![1].bytes).toBeLessThan(2_000);
    const lazy = outputs.filter(([, o]) => Object.keys(o.inputs).some((path) => path.endsWith('generated/response-validators.js')));
    expect(lazy).toHaveLength(1);
    expect(entry![1].imports.some((i) => i.kind === 'dynamic-import' && i.path === lazy[0]![0])).toBe(true);
  });
});
