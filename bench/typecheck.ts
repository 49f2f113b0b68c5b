// 5. (with the cold start) The type-check time of a consumer importing everything.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../scripts/lib/run.mjs';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { summarize, type Summary } from './lib/stats.js';

export interface TypecheckResult {
  consumerTypecheckMs: Summary;
}

const CONSUMER = `import * as client from '../../../src/index.js';
import * as testing from '../../../src/testing/index.js';
import type { NaturalPersonUpdate, PixKey, PixKeyList, Problem, paths, components, operations } from '../../../src/index.js';
const body: NaturalPersonUpdate = { email: 'a@b.com' };
const c = client.createBaasClient({ baseUrl: 'https://api.example', token: 't' });
export const uses: unknown[] = [body, c, testing.preferHeaders, {} as PixKey, {} as PixKeyList, {} as Problem, {} as paths, {} as components, {} as operations];
`;

export async function measureTypecheck(typecheckRuns = 3): Promise<TypecheckResult> {
  const dir = join(repoRoot, '.artifacts', 'bench', 'consumer');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'consumer.ts');
  await writeFile(file, CONSUMER);
  const times: number[] = [];
  try {
    for (let i = 0; i < typecheckRuns; i += 1) {
      const start = performance.now();
      await run(join(repoRoot, 'node_modules/typescript/bin/tsc'), [
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        'false',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--target',
        'ES2022',
        '--types',
        'node',
        file,
      ]);
      times.push(performance.now() - start);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { consumerTypecheckMs: summarize(times) };
}
