// The packed tarball, built once here for two jobs (a build costs seconds). First as a registry
// receives it: the right files, the README's listing, clean publint and attw reports. Then in a
// consumer's hands: installed into a fresh project outside the repository, compiled strictly
// (NodeNext without DOM, and Bundler), and run against the mock it starts itself; the README's
// example files get the same treatment: type-checked, and its vitest setup and test run.
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { packPackage, type Packed } from './pack.js';
import { exampleFiles, packListing, readmeSection } from './readme.js';

const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
let packed: Packed;
let project: string;
let installed: string[];

function compile(config: string): Promise<unknown> {
  return run(join(repoRoot, 'node_modules/.bin/tsc'), ['-p', join(project, config)]).catch((error: Error) => {
    throw new Error(`The consumer file does not compile against the packed package (${config}); a missing export or a broken .d.ts?\n${error.message}`);
  });
}

beforeAll(async () => {
  packed = await packPackage();
}, 120_000);
afterAll(() => packed?.cleanup());

describe('the packed tarball', () => {
  it('ships dist/, the README, the licence and the manifest, nothing else', () => {
    const outside = packed.files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file));
    expect(outside).toEqual([]);
    // No sources, tests, maps or build info: only JavaScript, declarations and the spec.
    expect(packed.files.filter((file) => file.startsWith('dist/') && !/\.(js|d\.ts|yaml|json)$/.test(file))).toEqual([]);
    expect(packed.files.filter((file) => /^dist\/.*(?<!\.d)\.ts$/.test(file))).toEqual([]);
  });

  it('holds every file the exports map points at, and the generated files', () => {
    const targets = Object.values(packed.manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
    for (const file of [...targets, './dist/generated/validators.js', './dist/generated/validators.d.ts', './dist/generated/schema.d.ts']) {
      expect(packed.files, `${file} is not in the tarball`).toContain(file.replace(/^\.\//, ''));
    }
  });

  it('is what the README says it ships ("What `npm pack` ships")', () => {
    // The listing names each JavaScript file (a .d.ts beside each) and the spec, per folder.
    const listed = new Set<string>();
    for (const line of packListing().split('\n')) {
      const [first, ...rest] = line.replace(/\(.*?\)/g, '').trim().split(/\s+/);
      if (!first) continue;
      if (first.endsWith('/')) for (const name of rest) listed.add(first + name);
      else for (const path of [first, ...rest]) listed.add(path);
    }
    const shipped = packed.files.filter((file) => file.startsWith('dist/') && !file.endsWith('.d.ts'));
    const hint = 'update the listing in README.md ("What `npm pack` ships") from `npm pack --dry-run`';
    expect(shipped.filter((file) => !listed.has(file)), `packed but not in the README: ${hint}`).toEqual([]);
    expect([...listed].filter((file) => !shipped.includes(file)), `in the README but not packed: ${hint}`).toEqual([]);
    for (const file of shipped.filter((f) => f.endsWith('.js'))) expect(packed.files, `${file} has no .d.ts`).toContain(file.replace(/\.js$/, '.d.ts'));
    expect(/lists (\d+) files/.exec(readmeSection())?.[1], `the file count: ${hint}`).toBe(String(packed.files.length));
  });

  it('passes publint (strict) with no message at all', async () => {
    const tarball = await readFile(packed.tarball);
    const { messages } = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) }, strict: true, level: 'suggestion' });
    expect(messages).toEqual([]);
  });

  it('passes attw for node16 (ESM) and bundler resolution, every entry point typed', async () => {
    // ESM only (profile esm-only): CommonJS consumers on Node >= 20.19 load it through require(esm).
    // openapi.yaml is a file to read (import.meta.resolve), not a module, so it has no resolution.
    const { stdout } = await promisify(execFile)(
      join(repoRoot, 'node_modules/.bin/attw'),
      [packed.tarball, '--profile', 'esm-only', '--format', 'json', '--exclude-entrypoints', './openapi.yaml'],
      { maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      // attw exits non-zero on a problem; its JSON report is still on stdout.
      if (!error.stdout) throw new Error(`attw failed:\n${error.stderr}`);
      return { stdout: error.stdout };
    });
    const report = JSON.parse(stdout) as {
      problems?: Record<string, { entrypoint?: string; resolutionKind?: string }[]>;
      analysis: { entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }> };
    };
    const checked = ['node16-esm', 'bundler'];
    const problems = Object.values(report.problems ?? {})
      .flat()
      .filter((problem) => problem.resolutionKind === undefined || checked.includes(problem.resolutionKind));
    expect(problems).toEqual([]);
    // A clean report must come from real resolutions, not from entry points attw skipped.
    for (const entry of ['.', './testing', './openapi.json']) {
      for (const kind of checked) {
        expect(report.analysis.entrypoints[entry]?.resolutions[kind]?.resolution?.fileName, `${entry} (${kind})`).toMatch(/\/dist\//);
      }
    }
  });
});

describe('a consumer project', () => {
  beforeAll(async () => {
    project = join(packed.dir, 'consumer');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await cp(join(repoRoot, 'test/package/consumer'), project, { recursive: true });
    // openapi-fetch comes from the npm cache when it is there (this repository installed it), else from
    // the registry. No lock file, no scripts: only what a consumer's `npm install` would fetch.
    await run('npm', ['install', packed.tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], { cwd: project });
    // Checked before the consumer adds its own: Prism for the mock and Node's types, linked from this
    // repository rather than downloaded a second time.
    installed = await readdir(join(project, 'node_modules'));
    await mkdir(join(project, 'node_modules', '@stoplight'), { recursive: true });
    await symlink(join(repoRoot, 'node_modules/@stoplight/prism-cli'), join(project, 'node_modules/@stoplight/prism-cli'), 'dir');
    await symlink(join(repoRoot, 'node_modules/@types'), join(project, 'node_modules/@types'), 'dir');
    await symlink(join(repoRoot, 'node_modules/vitest'), join(project, 'node_modules/vitest'), 'dir');
    // The sandbox's optional peers, for the README's sandbox tests.
    await mkdir(join(project, 'node_modules', '@hono'), { recursive: true });
    await mkdir(join(project, 'node_modules', '@faker-js'), { recursive: true });
    for (const name of ['@faker-js/faker', '@hono/node-server', 'hono']) await symlink(join(repoRoot, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }, 120_000);

  it('gets openapi-fetch as the only run-time dependency, and no Prism unless it asks', async () => {
    expect(installed).toContain('baas-pix-contract');
    expect(installed).toContain('openapi-fetch');
    // Prism is an optional peer: npm must not install it (it is large and needs its own Node range).
    expect(installed).not.toContain('@stoplight');
  });

  // Independent of each other, so they share the wall-clock time.
  it.concurrent('type-checks strictly as a bundler project sees it (moduleResolution Bundler)', async () => {
    await compile('tsconfig.bundler.json');
  }, 60_000);

  it.concurrent("compiles the README's example files, and its vitest globalSetup and test pass against the mock", async ({ expect }) => {
    const files = exampleFiles();
    expect(files.map((file) => file.name)).toEqual(expect.arrayContaining(['app.ts', 'vitest.config.ts', 'vitest.global-setup.ts', 'pix-keys.test.ts']));
    for (const file of files) await writeFile(join(project, file.name), file.code);
    await writeFile(
      join(project, 'tsconfig.readme.json'),
      JSON.stringify({ extends: './tsconfig.bundler.json', files: files.map((file) => file.name) }),
    );
    await compile('tsconfig.readme.json');
    // app.ts needs the real API; the vitest files run as they are, on the mock their globalSetup starts.
    const vitest = join(repoRoot, 'node_modules/vitest/vitest.mjs');
    // A clean environment: this run's own VITEST_* variables and colour settings would leak into it.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|FORCE_COLOR|NODE_OPTIONS)/.test(name)));
    const { stdout } = await promisify(execFile)(process.execPath, [vitest, 'run', '--reporter=dot'], {
      cwd: project,
      timeout: 60_000,
      env: { ...env, NO_COLOR: '1' },
    }).catch(
      (error: { message: string; stdout?: string; stderr?: string }) => {
        throw new Error(`The README's vitest example failed in the consumer project:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      },
    );
    const readmeTests = files.filter((file) => file.name.endsWith('.test.ts')).flatMap((file) => file.code.match(/^it\(/gm) ?? []).length;
    expect(stripVTControlCharacters(stdout)).toMatch(new RegExp(`Tests\\s+${readmeTests} passed \\(${readmeTests}\\)`));
  }, 90_000);

  it.concurrent('compiles strictly for Node (NodeNext, no DOM) and runs against the mock the package starts', async ({ expect }) => {
    await compile('tsconfig.json');
    // Killed after 60 s so a hung consumer cannot outlive the test; startMock's exit hook then stops Prism.
    const { stdout } = await promisify(execFile)(process.execPath, [join(project, 'out', 'consumer.js')], { cwd: project, timeout: 60_000 }).catch(
      (error: { message: string; stdout?: string; stderr?: string }) => {
        throw new Error(`The compiled consumer failed against its mock:\n${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      },
    );
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
      updated: { version: '1.0.0', status: 'SUCCESS' },
      keyTypes: ['phone', 'email', 'evp'],
      validatorIssues: ['/phoneNumber'],
      invalidIsValidationError: true,
      limitedStatus: 429,
      // The packed JSON and YAML bundles, read through the package's exports.
      specVersions: [version, version],
    });
  }, 90_000);
});
