// 5. (with the cold start) The type-check time of a consumer importing everything, beside a consumer of
// bare openapi-fetch over the same generated types: interleaved rounds, the order alternating, ratio per round.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../scripts/lib/run.mjs';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { summarize, type Summary } from './lib/stats.js';

export interface TypecheckResult {
  consumerTypecheckMs: Summary;
  /** The same check of a consumer of bare openapi-fetch and the generated `paths`. */
  bareTypecheckMs: Summary;
  /** Per round: ours / bare. */
  ratio: Summary;
}

const CONSUMER = `import * as client from '../../../src/index.js';
import * as testing from '../../../src/testing/index.js';
import type { NaturalPersonUpdate, PixKey, PixKeyList, Problem, paths, components, operations } from '../../../src/types.js';
const body: NaturalPersonUpdate = { email: 'a@b.com' };
const c = client.createBaasClient({ baseUrl: 'https://api.example', token: 't' });
export const uses: unknown[] = [body, c, testing.preferHeaders, {} as PixKey, {} as PixKeyList, {} as Problem, {} as paths, {} as components, {} as operations];
`;

// What a consumer writes without this package: openapi-fetch over the types openapi-typescript generates.
const BARE = `import createClient from 'openapi-fetch';
import type { paths, components, operations } from '../../../src/generated/schema.js';
const body: components['schemas']['NaturalPersonUpdate'] = { email: 'a@b.com' };
const c = createClient<paths>({ baseUrl: 'https://api.example', headers: { Authorization: 'Bearer t' } });
export const uses: unknown[] = [body, c, {} as paths, {} as components, {} as operations];
`;

const tsc = (file: string) =>
  run(join(repoRoot, 'node_modules/typescript/bin/tsc'), [
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

async function timed(file: string): Promise<number> {
  const start = performance.now();
  await tsc(file);
  return performance.now() - start;
}

export async function measureTypecheck(rounds = 5): Promise<TypecheckResult> {
  const dir = join(repoRoot, '.artifacts', 'bench', 'consumer');
  await mkdir(dir, { recursive: true });
  const ours = join(dir, 'consumer.ts');
  const bare = join(dir, 'bare.ts');
  await writeFile(ours, CONSUMER);
  await writeFile(bare, BARE);
  const times = { ours: [] as number[], bare: [] as number[] };
  const ratios: number[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
      for (const who of order) times[who].push(await timed(who === 'ours' ? ours : bare));
      ratios.push(times.ours.at(-1)! / times.bare.at(-1)!);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    consumerTypecheckMs: summarize(times.ours),
    bareTypecheckMs: summarize(times.bare),
    ratio: summarize(ratios),
  };
}
