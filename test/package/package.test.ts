// What a consumer gets from `npm pack`: a clean package (publint, attw), the same version as the
// spec, and a tarball that installs, type-checks strictly and runs against its own mock.
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publint } from 'publint';
import { run } from '../../scripts/lib/run.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { spec } from '../support/spec.js';

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const pkg = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  files: string[];
};

let workDir: string;
let tarball: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'baas-package-'));
  await run(process.execPath, ['scripts/build.mjs']);
  // npm may print warnings around its JSON.
  const output = await run('npm', ['pack', '--json', '--pack-destination', workDir]);
  const packed = JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as { filename: string }[];
  tarball = join(workDir, packed[0]!.filename);
}, 120_000);

afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('the package', () => {
  it('has the version of the spec', () => {
    expect(spec.info.version).toBe(pkg.version);
  });

  it('depends at run time on openapi-fetch only', () => {
    expect(Object.keys(pkg.dependencies)).toEqual(['openapi-fetch']);
  });

  it('passes publint with no message', async () => {
    const { messages } = await publint({ pkgDir: repoRoot, strict: true });
    expect(messages).toEqual([]);
  });

  it('passes attw for node16 ESM and bundler resolution', async () => {
    // ESM only: CommonJS consumers on Node >= 20.19 load it through require(esm). The YAML spec is a
    // file to read (require.resolve), not a module, so it has no resolution to check.
    const output = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'json', '--exclude-entrypoints', './openapi.yaml']).catch((error: Error) => error.message);
    const report = JSON.parse(output.slice(output.indexOf('{'))) as { problems?: Record<string, { resolutionKind?: string }[]> };
    const problems = Object.values(report.problems ?? {})
      .flat()
      .filter((problem) => problem.resolutionKind === undefined || ['node16-esm', 'bundler'].includes(problem.resolutionKind));
    expect(problems).toEqual([]);
  });

  it('installs from the tarball, compiles strictly and runs against its own mock', async () => {
    const project = join(workDir, 'consumer');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await cp(join(repoRoot, 'test/package/consumer'), project, { recursive: true });
    await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], { cwd: project });
    // Prism (an optional peer) and Node's types come from this repository rather than a second download.
    await mkdir(join(project, 'node_modules', '@stoplight'), { recursive: true });
    await symlink(join(repoRoot, 'node_modules/@stoplight/prism-cli'), join(project, 'node_modules/@stoplight/prism-cli'), 'dir');
    await symlink(join(repoRoot, 'node_modules/@types'), join(project, 'node_modules/@types'), 'dir');

    await run(bin('tsc'), ['-p', join(project, 'tsconfig.json')]);
    const output = await run(process.execPath, [join(project, 'out', 'consumer.js')], { cwd: project });
    expect(JSON.parse(output.trim().split('\n').pop()!)).toEqual({
      updated: { version: '1.0.0', status: 'SUCCESS' },
      keyTypes: ['phone', 'email'],
      validatorIssues: ['/phoneNumber'],
      invalidIsValidationError: true,
      limitedStatus: 429,
    });
  }, 120_000);
});
