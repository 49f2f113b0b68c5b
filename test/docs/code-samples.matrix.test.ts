// Every x-codeSample of the bundled spec, run as a reader runs it, against a sandbox over HTTP: curl
// and Python 3 with requests from Debian's packages (installed as root, or the test fails saying how),
// the TypeScript ones with tsx (and type-checked with tsc first). The spec's example customer is not in
// the sandbox, so its values (each required query parameter's example) are replaced by a sandbox
// customer's; the rest of each sample runs as written. A sample's first output is the answer's status.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../scripts/lib/operations.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { ensureCurl, ensurePythonRequests } from '../../scripts/lib/sample-tools.mjs';
import { baseEnv } from '../examples/run-example.js';
import { listeningSandbox } from '../support/listening-sandbox.js';
import { deref, spec } from '../support/spec.js';

const run = promisify(execFile);
type Sample = { lang: string; label: string; source: string };
const sandbox = listeningSandbox('code-samples');
let curl: string;
let python: string;
let dir: string;

beforeAll(async () => {
  curl = await ensureCurl();
  python = await ensurePythonRequests();
  dir = await mkdtemp(join(tmpdir(), 'baas-samples-'));
}, 10 * 60_000);
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

// The sandbox's first customer in place of the spec's example one, by the parameters' names.
function forSandbox(source: string, path: string, method: string): string {
  const customer: Record<string, string> = {
    Account: sandbox.customer.account,
    DocumentNumber: sandbox.customer.documentNumber,
  };
  let out = source;
  for (const node of spec.paths[path]![method].parameters ?? []) {
    const parameter = deref(node);
    if (!(parameter.name in customer)) continue;
    expect(out, `the sample shows ${parameter.name}'s example`).toContain(String(parameter.example));
    out = out.replaceAll(String(parameter.example), customer[parameter.name]!);
  }
  return out;
}

const cases = listOperations(spec).flatMap((op) =>
  (spec.paths[op.path]![op.method.toLowerCase()]['x-codeSamples'] as Sample[]).map(
    (sample, index) => [op.operationId, sample.label, { op, sample, index }] as const,
  ),
);

async function runSample(file: string, sample: Sample, env: NodeJS.ProcessEnv): Promise<string> {
  const options = { cwd: repoRoot, env, timeout: 60_000 };
  if (sample.label === 'curl')
    return (await run('/bin/sh', [file], { ...options, env: { ...env, PATH: `${join(curl, '..')}:${env.PATH}` } }))
      .stdout;
  if (sample.lang === 'Python') return (await run(python, [file], options)).stdout;
  return (await run(process.execPath, ['--import', 'tsx', file], options)).stdout;
}

describe('each code sample, run against the sandbox', () => {
  it.each(cases)('%s: %s', async (operationId, _label, { op, sample, index }) => {
    const extension = sample.label === 'curl' ? 'sh' : sample.lang === 'Python' ? 'py' : 'mts';
    const file = join(dir, `${operationId}-${index}.${extension}`);
    await writeFile(file, forSandbox(sample.source, op.path, op.method.toLowerCase()));
    const env = { ...baseEnv(), BAAS_BASE_URL: sandbox.url, BAAS_TOKEN: sandbox.client.token };
    const out = await runSample(file, sample, env);
    // curl -i prints the status line; the others print the status first.
    const status = sample.label === 'curl' ? /^HTTP\/[0-9.]+ ([0-9]{3})/.exec(out)?.[1] : /^([0-9]{3}) /.exec(out)?.[1];
    expect(status, out).toBe('200');
    if (op.operationId === 'listPixKeys') expect(out).toMatch(/"data"\s*:\s*\[/);
    else expect(out).toMatch(/"status"\s*:\s*"SUCCESS"/);
  });

  it('the TypeScript samples type-check against the package (tsc, strict, as the repository compiles)', async () => {
    const files: string[] = [];
    await mkdir(join(repoRoot, '.artifacts'), { recursive: true });
    for (const [operationId, , { sample, index }] of cases) {
      if (sample.lang !== 'TypeScript') continue;
      const file = join(repoRoot, '.artifacts', `sample-${operationId}-${index}.mts`);
      files.push(file);
      await writeFile(file, sample.source);
    }
    const tsconfig = join(repoRoot, '.artifacts', 'tsconfig.samples.json');
    await writeFile(
      tsconfig,
      JSON.stringify({ extends: '../tsconfig.json', include: files, compilerOptions: { noEmit: true } }),
    );
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', tsconfig], { cwd: repoRoot, timeout: 240_000 }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? 'tsc failed',
    );
    expect(result).toBe('');
    expect(files).toHaveLength(4);
  });
});
