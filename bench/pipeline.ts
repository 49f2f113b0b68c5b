// 4. Pipeline: lint, bundle, generate (types and validators) and docs, on the real spec and on a
// synthetic one 50 times larger, to see how the time grows with the size.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { redocly } from '../scripts/lib/run.mjs';
import { repoRoot } from '../scripts/lib/paths.mjs';
import { validatorSource } from '../scripts/lib/validators.mjs';

type Step = 'lint' | 'bundle' | 'generate' | 'docs';
export interface PipelineRun {
  bytes: number;
  paths: number;
  schemas: number;
  ms: Record<Step | 'total', number>;
  lintProblems: number;
}
export interface PipelineResult {
  real: PipelineRun;
  synthetic: PipelineRun;
  sizeRatio: number;
  timeRatio: Record<Step | 'total', number>;
}

/** The bundled spec with `copies - 1` renamed copies of every path and schema added. */
export function enlarge(spec: any, copies: number): any {
  const big = structuredClone(spec);
  const schemaNames = Object.keys(spec.components.schemas);
  for (let n = 2; n <= copies; n += 1) {
    const rename = (node: any): any =>
      JSON.parse(
        JSON.stringify(node).replace(/#\/components\/schemas\/([A-Za-z]+)/g, (_m, name: string) =>
          schemaNames.includes(name) ? `#/components/schemas/${name}Copy${n}` : `#/components/schemas/${name}`,
        ),
      );
    for (const name of schemaNames) big.components.schemas[`${name}Copy${n}`] = rename(spec.components.schemas[name]);
    for (const [path, item] of Object.entries<any>(spec.paths)) {
      const copy = rename(item);
      for (const operation of Object.values<any>(copy)) operation.operationId = `${operation.operationId}Copy${n}`;
      big.paths[path.replace('/v2/api/', `/v2/api/copy${n}/`)] = copy;
    }
  }
  return big;
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function runPipeline(specFile: string, dir: string): Promise<PipelineRun> {
  const ms = {} as PipelineRun['ms'];
  let lintProblems = 0;
  ms.lint = await time(async () => {
    const output = await redocly(['lint', specFile, '--format', 'json', '--max-problems', '100000']).catch(
      (e: Error) => e.message,
    );
    const report = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as {
      totals: { errors: number; warnings: number };
    };
    lintProblems = report.totals.errors + report.totals.warnings;
  });
  const bundled = join(dir, 'bundled.json');
  ms.bundle = await time(() => redocly(['bundle', specFile, '--ext', 'json', '--output', bundled]));
  const spec = JSON.parse(await readFile(bundled, 'utf8'));
  ms.generate = await time(async () => {
    await writeFile(join(dir, 'schema.ts'), astToString(await openapiTS(spec)));
    await writeFile(join(dir, 'validators.js'), await validatorSource(spec));
  });
  ms.docs = await time(() => redocly(['build-docs', bundled, '--inlineBundle', '--output', join(dir, 'docs.html')]));
  ms.total = ms.lint + ms.bundle + ms.generate + ms.docs;
  return {
    bytes: (await stat(specFile)).size,
    paths: Object.keys(spec.paths).length,
    schemas: Object.keys(spec.components.schemas).length,
    ms,
    lintProblems,
  };
}

export async function measurePipeline(factor = 50): Promise<PipelineResult> {
  const dir = await mkdtemp(join(tmpdir(), 'baas-bench-pipeline-'));
  try {
    const spec = JSON.parse(await readFile(join(repoRoot, 'src/generated/openapi.json'), 'utf8'));
    const realFile = join(dir, 'real.json');
    const bigFile = join(dir, 'synthetic.json');
    await writeFile(realFile, JSON.stringify(spec, null, 2));
    await writeFile(bigFile, JSON.stringify(enlarge(spec, factor), null, 2));
    const real = await runPipeline(realFile, dir);
    const synthetic = await runPipeline(bigFile, dir);
    const steps = Object.keys(real.ms) as (keyof PipelineRun['ms'])[];
    return {
      real,
      synthetic,
      sizeRatio: synthetic.bytes / real.bytes,
      timeRatio: Object.fromEntries(steps.map((s) => [s, synthetic.ms[s] / real.ms[s]])) as PipelineResult['timeRatio'],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
