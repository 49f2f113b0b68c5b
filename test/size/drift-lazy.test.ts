// Response validation must cost nothing to users who leave it off: the generated response
// validators (~70 kB) are reached only through a dynamic import, which loads on the first answer
// checked, and which a splitting bundler puts in a chunk of its own.
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const loads = vi.hoisted(() => ({ validators: 0 }));
vi.mock('../../src/generated/response-validators.js', async (importOriginal) => {
  loads.validators += 1;
  return importOriginal();
});

/** `source` bundled with splitting: its entry chunk, and the chunks holding the response validators. */
async function split(source: string) {
  const result = await build({
    entryPoints: [join(repoRoot, source)],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    outdir: join(repoRoot, '.artifacts', 'drift-lazy'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint?.endsWith(source));
  const validators = outputs.filter(([, o]) =>
    Object.keys(o.inputs).some((path) => path.endsWith('generated/response-validators.js')),
  );
  return { entry: entry![1], validators };
}

describe('the generated response validators', () => {
  it.each([['src/index.ts'], ['src/drift/index.ts']])(
    'bundled from %s, sit in a chunk of their own, reached by dynamic import',
    async (source) => {
      const { entry, validators } = await split(source);
      expect(Object.keys(entry.inputs).join('\n')).not.toMatch(/response-validators/);
      expect(validators).toHaveLength(1);
      expect(entry.imports.some((i) => i.kind === 'dynamic-import' && i.path === validators[0]![0])).toBe(true);
    },
  );

  it('load on the first answer a client checks, and not for a client that checks none', async () => {
    const { createBaasClient } = await import('../../src/index.js');
    const page = { cursor: { next: null }, data: [] };
    const options = {
      baseUrl: 'https://api.example.test',
      token: 'drift-lazy-token',
      retry: false as const,
      fetch: async () => Response.json(page),
    };
    await createBaasClient(options).listPixKeys();
    const checking = createBaasClient({ ...options, validateResponses: 'warn' });
    expect(loads.validators).toBe(0);
    await checking.listPixKeys();
    expect(loads.validators).toBe(1);
  });
});
