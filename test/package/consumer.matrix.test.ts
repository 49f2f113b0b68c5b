// The packed tarball (built once per run, test/package/pack.ts), for two jobs. First as a registry
// receives it: the right files, the README's listing, clean publint and attw reports (every
// resolution: node10, node16 from CommonJS and from ESM, bundler). Then in consumers' hands, each a
// fresh project outside the repository with the tarball installed: ESM with NodeNext (and Bundler),
// CommonJS as NestJS sets it up ("module": "commonjs", default resolution), and Jest in a CommonJS
// project; each compiled once with strict tsc, then run on Node 20, 22 and 24. The README's example
// files are type-checked and its vitest test run; the command line is run with npx.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { CLI_BIN, ENTRIES } from '../../scripts/lib/entries.mjs';
import { ensureTool, toolFile } from '../../scripts/lib/tools.mjs';
import { eventually, portIsFree, startUntil } from '../cli/processes.js';
import { NODE_MAJORS, nodeBinary } from './node-versions.js';
import { sharedPack, type PackedTarball } from './pack.js';
import { documentEntries, documentFiles } from '../../scripts/lib/shipped-docs.mjs';
import { exampleFiles, packListing, readmeSection } from './readme.js';

// Limits are backstops, never what decides a result: the matrix runs six consumers (three Node versions,
// ESM and CommonJS) at once, each starting Prism, beside the rest of the matrix on two cores.
const BACKSTOP_MS = 5 * 60_000;

const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
let packed: PackedTarball;
/** The consumer projects' own folder (the tarball's is the run's, shared with other files). */
let projects: string;
let project: string;
let cjsProject: string;
let jestProject: string;
let installed: string[];

// `npm i -D typescript` gives TypeScript 7 now; the repository builds with 5.9, and 7 is a tool of the
// tool cache (tools/typescript-7). Each by its package's path: both name their bin `tsc`.
const TSC = {
  '5.9': () => Promise.resolve(join(repoRoot, 'node_modules/typescript/bin/tsc')),
  '7': () => toolFile('typescript-7', 'typescript/bin/tsc'),
};

function compile(
  config: string,
  dir = project,
  typescript: keyof typeof TSC = '5.9',
  extra: string[] = [],
): Promise<unknown> {
  return TSC[typescript]()
    .then((tsc) => run(tsc, ['-p', join(dir, config), ...extra]))
    .catch((error: Error) => {
      throw new Error(
        `The consumer file does not compile with TypeScript ${typescript} against the packed package (${dir}/${config}); a missing export or a broken .d.ts?\n${error.message}`,
      );
    });
}

// A clean environment: this run's own VITEST_* variables, loaders and colour settings would leak in.
const cleanEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|FORCE_COLOR|NODE_OPTIONS|JEST)/.test(name)),
  ),
  NO_COLOR: '1',
});

/** Runs a file with a Node binary in a consumer project; rejects with all it printed. */
async function runIn(dir: string, binary: string, args: string[], what: string): Promise<string> {
  const { stdout } = await promisify(execFile)(binary, args, { cwd: dir, timeout: BACKSTOP_MS, env: cleanEnv() }).catch(
    (error: { message: string; stdout?: string; stderr?: string }) => {
      throw new Error(`${what} failed:\n${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    },
  );
  return stdout;
}

/** A fresh project outside the repository with the tarball installed, as a consumer's `npm install` does it. */
async function consumerProject(name: string, manifest: object, from: string, extra: string[] = []): Promise<string> {
  const dir = join(projects, name);
  await mkdir(dir);
  await cp(join(repoRoot, from), dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...manifest }));
  // openapi-fetch comes from the npm cache when it is there (this repository installed it), else from
  // the registry. No lock file, no scripts: only what a consumer's `npm install` would fetch.
  await run(
    'npm',
    [
      'install',
      packed.tarball,
      ...extra,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
    ],
    { cwd: dir },
  );
  return dir;
}

/**
 * Tools a consumer adds itself, linked from this repository's node_modules (or a tool's, `from`)
 * rather than downloaded a second time.
 */
/** The port of the "… listening on http://127.0.0.1:PORT" line a server printed; never 0 (the one it was asked for). */
function printedPort(line: string): number {
  const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1]);
  expect(port, `no port in ${JSON.stringify(line)}`).toBeGreaterThan(0);
  return port;
}

async function linkFrom(from: string, dir: string, ...packages: string[]): Promise<void> {
  for (const name of packages) {
    if (name.includes('/')) await mkdir(join(dir, 'node_modules', name.split('/')[0]!), { recursive: true });
    await symlink(join(from, name), join(dir, 'node_modules', name), 'dir');
  }
}
const link = (dir: string, ...packages: string[]) => linkFrom(join(repoRoot, 'node_modules'), dir, ...packages);

beforeAll(async () => {
  // The tools of the tool cache these tests use are installed here, on first need, under the hook's ceiling.
  [packed, projects] = await Promise.all([
    sharedPack(),
    mkdtemp(join(tmpdir(), 'baas-consumers-')),
    ensureTool('attw'),
    ensureTool('typescript-7'),
    ensureTool('jest'),
  ]);
}, 600_000);
afterAll(() => (projects ? rm(projects, { recursive: true, force: true }) : undefined));

describe('the packed tarball', () => {
  it('ships dist/, the manifest, the licence and the documents `files` lists (scripts/lib/shipped-docs.mjs), nothing else', async () => {
    const documents = await documentFiles(documentEntries(packed.manifest as unknown as { files: string[] }));
    const outside = packed.files.filter(
      (file) => !file.startsWith('dist/') && !['package.json', 'LICENSE', ...documents].includes(file),
    );
    expect(outside).toEqual([]);
    // Every document is there; the README, its repository-only links made text, among them.
    expect(packed.files).toEqual(expect.arrayContaining(['README.md', ...documents]));
    // No tests or build info: only JavaScript of both formats, its source maps, declarations and the spec.
    expect(
      packed.files.filter(
        (file) => file.startsWith('dist/') && !/\.(js|cjs|js\.map|cjs\.map|d\.ts|d\.cts|yaml|json)$/.test(file),
      ),
    ).toEqual([]);
    expect(packed.files.filter((file) => /^dist\/.*(?<!\.d)\.c?ts$/.test(file))).toEqual([]);
  });

  it('holds every file the exports map and the bin point at, both formats of every entry point', () => {
    const targets = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : Object.values(value as object).flatMap(targets);
    const files = targets(packed.manifest.exports);
    for (const subpath of Object.keys(ENTRIES)) {
      const entry = JSON.stringify(packed.manifest.exports[subpath]);
      for (const kind of ['.js"', '.d.ts"', '.cjs"', '.d.cts"'])
        expect(entry, `${subpath} lacks its ${kind.slice(0, -1)} file`).toContain(kind);
    }
    for (const file of [...files, CLI_BIN])
      expect(packed.files, `${file} is not in the tarball`).toContain(file.replace(/^\.\//, ''));
    expect((packed.manifest as { bin?: Record<string, string> }).bin).toEqual({ 'baas-pix-contract': CLI_BIN });
  });

  it('is what the README says it ships ("What `npm pack` ships")', () => {
    // The listing names each JavaScript file (a .d.ts beside each) and the spec, per folder.
    const listed = new Set<string>();
    for (const line of packListing().split('\n')) {
      const [first, ...rest] = line
        .replace(/\(.*?\)/g, '')
        .trim()
        .split(/\s+/);
      if (!first) continue;
      if (first.endsWith('/')) for (const name of rest) listed.add(first + name);
      else for (const path of [first, ...rest]) listed.add(path);
    }
    // Declarations are not listed (one beside each entry file); `*` stands for a chunk's hash.
    const shipped = packed.files.filter((file) => file.startsWith('dist/') && !/\.d\.c?ts$/.test(file));
    const pattern = (listing: string) => new RegExp(`^${listing.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]+')}$`);
    const covers = (listing: string, file: string) => pattern(listing).test(file);
    const hint = 'update the listing in README.md ("What `npm pack` ships") from `npm pack --dry-run`';
    expect(
      shipped.filter((file) => ![...listed].some((l) => covers(l, file))),
      `packed but not in the README: ${hint}`,
    ).toEqual([]);
    expect(
      [...listed].filter((l) => !shipped.some((file) => covers(l, file))),
      `in the README but not packed: ${hint}`,
    ).toEqual([]);
    for (const subpath of Object.keys(ENTRIES)) {
      const base = subpath === '.' ? 'dist/index' : `dist/${subpath.slice(2)}/index`;
      for (const ext of ['.js', '.d.ts', '.cjs', '.d.cts']) expect(packed.files, `${base}${ext}`).toContain(base + ext);
    }
    expect(/lists (\d+) files/.exec(readmeSection())?.[1], `the file count: ${hint}`).toBe(String(packed.files.length));
  });

  it('passes publint (strict) with no message at all', async () => {
    const tarball = await readFile(packed.tarball);
    const { messages } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      strict: true,
      level: 'suggestion',
    });
    expect(messages).toEqual([]);
  });

  it('passes attw for every resolution (node10, node16 from CommonJS and ESM, bundler), every entry point typed', async () => {
    // openapi.yaml is a file to read (import.meta.resolve), not a module, so it has no resolution.
    const { stdout } = await promisify(execFile)(
      await toolFile('attw', '.bin/attw'),
      [packed.tarball, '--format', 'json', '--exclude-entrypoints', './openapi.yaml'],
      { maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      // attw exits non-zero on a problem; its JSON report is still on stdout.
      if (!error.stdout) throw new Error(`attw failed:\n${error.stderr}`);
      return { stdout: error.stdout };
    });
    const report = JSON.parse(stdout) as {
      problems?: Record<string, unknown[]>;
      analysis: { entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }> };
    };
    expect(Object.values(report.problems ?? {}).flat()).toEqual([]);
    // A clean report must come from real resolutions, not from entry points attw skipped; CommonJS
    // resolutions get the .d.cts declarations, ESM ones the .d.ts.
    const expected = {
      node10: /\/dist\/.*\.d\.cts$/,
      'node16-cjs': /\/dist\/.*\.d\.cts$/,
      'node16-esm': /\/dist\/.*\.d\.ts$/,
      bundler: /\/dist\/.*\.d\.ts$/,
    };
    for (const entry of Object.keys(ENTRIES)) {
      for (const [kind, file] of Object.entries(expected)) {
        expect(
          report.analysis.entrypoints[entry]?.resolutions[kind]?.resolution?.fileName,
          `${entry} (${kind})`,
        ).toMatch(file);
      }
    }
    for (const kind of Object.keys(expected)) {
      expect(
        report.analysis.entrypoints['./openapi.json']?.resolutions[kind]?.resolution?.fileName,
        `./openapi.json (${kind})`,
      ).toMatch(/\/dist\/generated\/openapi\.json$/);
    }
  });
});

describe('the TypeScript versions consumers are checked with', () => {
  it('are the ones each is named for', async () => {
    for (const [version, tsc] of Object.entries(TSC)) {
      expect(await run(await tsc(), ['-v'])).toMatch(new RegExp(`Version ${version.replace('.', '\\.')}\\.`));
    }
  });
});

describe('consumer projects', () => {
  const compiled: Record<'esm' | 'msw' | 'cjs', Promise<unknown> | undefined> = {
    esm: undefined,
    msw: undefined,
    cjs: undefined,
  };

  beforeAll(async () => {
    [project, cjsProject, jestProject] = await Promise.all([
      consumerProject('consumer', { type: 'module' }, 'test/package/consumer'),
      consumerProject('consumer-cjs', {}, 'test/package/consumer-cjs'),
      // Faker 10 is ES modules only, which Jest's CommonJS runtime cannot require: Jest users install
      // Faker 9.9 (same API, CommonJS), as the README says; the registry's copy, as they would.
      consumerProject(
        'consumer-jest',
        JSON.parse(await readFile(join(repoRoot, 'test/package/consumer-jest/package.json'), 'utf8')),
        'test/package/consumer-jest',
        ['@faker-js/faker@^9.9.0'],
      ),
    ]);
    // Checked before the consumer adds its own tools.
    installed = await readdir(join(project, 'node_modules'));
    // The sandbox's optional peers too: all of them for the ESM project (and the README's sandbox
    // tests), only Faker for the CommonJS one (its declarations must not need msw or the adapter),
    // the HTTP adapter for Jest (which has its own Faker 9).
    await link(
      project,
      '@stoplight/prism-cli',
      '@types',
      'vitest',
      '@redocly',
      '@faker-js/faker',
      '@hono/node-server',
      'hono',
      'msw',
      'tsx',
    );
    await link(cjsProject, '@stoplight/prism-cli', '@types', '@faker-js/faker');
    await link(jestProject, '@hono/node-server', 'hono');
    await linkFrom(await ensureTool('jest'), jestProject, 'jest');
  }, 180_000);

  it('gets openapi-fetch as the only run-time dependency, and no Prism unless it asks', async () => {
    expect(installed).toContain('baas-pix-contract');
    expect(installed).toContain('openapi-fetch');
    // Prism is an optional peer: npm must not install it (it is large and needs its own Node range).
    expect(installed).not.toContain('@stoplight');
  });

  it('runs an example the package ships, from node_modules, as the README says (`npx tsx node_modules/baas-pix-contract/examples/<file>.ts`)', async () => {
    const example = join(project, 'node_modules/baas-pix-contract/examples/first-call.ts');
    const stdout = await runIn(project, process.execPath, ['--import', 'tsx', example], 'examples/first-call.ts');
    // A sandbox in process: the first customer's keys, one line each (type, status, holder).
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^(cpf|cnpj|email|phone|evp) \w+ \S/);
  }, 120_000);

  // Independent of each other, so they share the wall-clock time.
  it.concurrent('ESM: compiles strictly for Node (NodeNext, no DOM, skipLibCheck off)', async () => {
    compiled.esm ??= compile('tsconfig.json');
    await compiled.esm;
  }, 120_000);

  it.concurrent('ESM with msw: compiles (NodeNext, with the DOM library msw needs)', async () => {
    compiled.msw ??= compile('tsconfig.msw.json');
    await compiled.msw;
  }, 120_000);

  it.concurrent('ESM: type-checks strictly as a bundler project sees it (moduleResolution Bundler)', async () => {
    await compile('tsconfig.bundler.json');
  }, 120_000);

  it.concurrent('CommonJS: compiles with "module": "commonjs" and the default (node10) resolution, skipLibCheck off', async () => {
    compiled.cjs ??= compile('tsconfig.json', cjsProject);
    await compiled.cjs;
  }, 120_000);

  it.concurrent('TypeScript 7: the ESM (NodeNext and Bundler) and CommonJS consumers type-check strictly too', async () => {
    await compile('tsconfig.json', project, '7', ['--noEmit']);
    await compile('tsconfig.bundler.json', project, '7', ['--noEmit']);
    await compile('tsconfig.json', cjsProject, '7', ['--noEmit']);
  }, 120_000);

  it.concurrent(
    "compiles the README's example files, and its vitest globalSetup and test pass against the mock",
    async ({ expect }) => {
      // "Going to production" shows tokens, certificates and logs together: type-checked only (it needs a real provider).
      const files = [...exampleFiles(), ...exampleFiles(readmeSection('## Going to production'))];
      expect(files.map((file) => file.name)).toEqual(
        expect.arrayContaining([
          'app.ts',
          'vitest.config.ts',
          'vitest.global-setup.ts',
          'pix-keys.test.ts',
          'production.ts',
        ]),
      );
      for (const file of files) await writeFile(join(project, file.name), file.code);
      await writeFile(
        join(project, 'tsconfig.readme.json'),
        JSON.stringify({ extends: './tsconfig.bundler.json', files: files.map((file) => file.name) }),
      );
      await compile('tsconfig.readme.json');
      // app.ts needs the real API; the vitest files run as they are, on the mock their globalSetup starts.
      const vitest = join(repoRoot, 'node_modules/vitest/vitest.mjs');
      const { stdout } = await promisify(execFile)(process.execPath, [vitest, 'run', '--reporter=dot'], {
        cwd: project,
        timeout: BACKSTOP_MS,
        env: cleanEnv(),
      }).catch((error: { message: string; stdout?: string; stderr?: string }) => {
        throw new Error(
          `The README's vitest example failed in the consumer project:\n${error.stdout ?? ''}${error.stderr ?? ''}`,
        );
      });
      const readmeTests = files
        .filter((file) => file.name.endsWith('.test.ts'))
        .flatMap((file) => file.code.match(/^it\(/gm) ?? []).length;
      expect(stripVTControlCharacters(stdout)).toMatch(
        new RegExp(`Tests\\s+${readmeTests} passed \\(${readmeTests}\\)`),
      );
    },
    BACKSTOP_MS,
  );

  describe.each(NODE_MAJORS)('on Node %i', (major) => {
    let node: string;
    beforeAll(async () => {
      node = await nodeBinary(major);
      compiled.esm ??= compile('tsconfig.json');
      await compiled.esm;
      compiled.msw ??= compile('tsconfig.msw.json');
      await compiled.msw;
      compiled.cjs ??= compile('tsconfig.json', cjsProject);
      await compiled.cjs;
    }, 6 * 60_000);

    it.concurrent(
      'the ESM consumer runs against the mock the package starts',
      async ({ expect }) => {
        const stdout = await runIn(
          project,
          node,
          [join(project, 'out', 'consumer.js')],
          `The ESM consumer on Node ${major}`,
        );
        expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
          updated: { version: '1.0.0', status: 'SUCCESS' },
          keyTypes: ['phone', 'email', 'evp'],
          validatorIssues: ['/phoneNumber'],
          invalidIsValidationError: true,
          limitedStatus: 429,
          // The packed JSON and YAML bundles, read through the package's exports.
          specVersions: [version, version],
          sandbox: { overHttp: 10 },
        });
      },
      BACKSTOP_MS,
    );

    it.concurrent(
      'the sandbox behind msw, with msw typed by its own http and loaded by the package',
      async ({ expect }) => {
        const stdout = await runIn(
          project,
          node,
          [join(project, 'out', 'consumer-msw.js')],
          `The msw consumer on Node ${major}`,
        );
        expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ throughMsw: 7, loadedByPackage: 10 });
      },
      BACKSTOP_MS,
    );

    it.concurrent(
      'the CommonJS consumer runs with require() against the mock',
      async ({ expect }) => {
        const stdout = await runIn(
          cjsProject,
          node,
          [join(cjsProject, 'out', 'consumer.js')],
          `The CommonJS consumer on Node ${major}`,
        );
        expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
          loadedAs: 'index.cjs',
          keyTypes: ['phone', 'email', 'evp'],
          invalidIsValidationError: true,
          cpfCheck: true,
          specVersion: version,
          sandboxKeys: 10,
          sandboxLoadedAs: 'sandbox/index.cjs',
        });
      },
      BACKSTOP_MS,
    );

    it.concurrent(
      'Jest in a CommonJS project loads the client and the sandbox and passes its tests',
      async ({ expect }) => {
        const jest = join(jestProject, 'node_modules/jest/bin/jest.js');
        // Jest prints its summary on stderr; runIn rejects on a failing test.
        const { stderr } = await promisify(execFile)(node, [jest, '--ci'], {
          cwd: jestProject,
          timeout: BACKSTOP_MS,
          env: cleanEnv(),
        }).catch((error: { message: string; stdout?: string; stderr?: string }) => {
          throw new Error(`Jest on Node ${major} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
        });
        expect(stripVTControlCharacters(stderr)).toMatch(/Tests:\s+6 passed, 6 total/);
      },
      BACKSTOP_MS,
    );
  });

  describe('the command line, installed from the tarball (npx baas-pix-contract)', () => {
    const npx = (args: string[]) =>
      runIn(project, 'npx', ['--no-install', 'baas-pix-contract', ...args], `npx baas-pix-contract ${args.join(' ')}`);

    it(
      '--version and --help',
      async () => {
        expect((await npx(['--version'])).trim()).toBe(version);
        expect(await npx(['--help'])).toMatch(
          /Commands:\n\s+mock .*\n\s+sandbox .*\n\s+verify .*\n\s+update-many .*\n\s+export-keys .*\n\s+docs /,
        );
        expect(await npx(['verify', '--help'])).toMatch(/Usage: baas-pix-contract verify --base-url URL/);
      },
      BACKSTOP_MS,
    );

    // --port 0 and the port read back from the "listening on" line: a port looked up free first could be
    // taken by another test before the command bound it.
    it(
      'mock serves on the port it prints (--port 0), logs each request, and frees the port on SIGTERM',
      async () => {
        const mock = startUntil(
          'npx',
          ['--no-install', 'baas-pix-contract', 'mock', '--port', '0'],
          /listening on http:\/\/127\.0\.0\.1:\d+/,
          { cwd: project },
        );
        let port = 0;
        try {
          port = printedPort(await mock.ready);
          const response = await fetch(`http://127.0.0.1:${port}/v2/api/pix/keys/list-keys`, {
            headers: { authorization: 'Bearer t', 'user-agent': 'npx-test/1' },
          });
          expect(response.status).toBe(200);
          expect(
            await eventually(() => /GET \/v2\/api\/pix\/keys\/list-keys HTTP 200/.test(mock.output()), 5_000),
          ).toBe(true);
        } finally {
          mock.child.kill('SIGTERM');
        }
        expect(await eventually(() => portIsFree(port), 15_000), `port ${port} still taken`).toBe(true);
      },
      BACKSTOP_MS,
    );

    it(
      'sandbox serves on the port it prints (--port 0) with the tokens it prints, logs each request, and frees the port on SIGTERM',
      async () => {
        const sandbox = startUntil(
          'npx',
          ['--no-install', 'baas-pix-contract', 'sandbox', '--port', '0', '--seed', 'npx'],
          /Sandbox listening on http:\/\/127\.0\.0\.1:\d+.*\n/,
          { cwd: project },
        );
        let port = 0;
        try {
          port = printedPort(await sandbox.ready);
          const token = /Bearer (sbx_[0-9a-f]+)/.exec(sandbox.output())?.[1];
          const response = await fetch(`http://127.0.0.1:${port}/v2/api/pix/keys/list-keys?limit=3`, {
            headers: { authorization: `Bearer ${token}`, 'user-agent': 'npx-test/1' },
          });
          expect(response.status).toBe(200);
          expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(3);
          expect(
            await eventually(() => /GET \/v2\/api\/pix\/keys\/list-keys HTTP 200/.test(sandbox.output()), 5_000),
          ).toBe(true);
          // verify from the same install, against it: no drift (exit 0), its token masked in the table.
          const report = await npx([
            'verify',
            '--base-url',
            `http://127.0.0.1:${port}`,
            '--token',
            token!,
            '--limit',
            '3',
            '--pages',
            '2',
          ]);
          expect(report).toMatch(/^list-keys page 2 .* OK$/m);
          expect(report).toMatch(/^no drift: /m);
          expect(report).not.toContain(token);
        } finally {
          sandbox.child.kill('SIGTERM');
        }
        expect(await eventually(() => portIsFree(port), 15_000), `port ${port} still taken`).toBe(true);
      },
      BACKSTOP_MS,
    );

    it('docs --out DIR writes the one-page HTML docs from the packaged spec', async () => {
      const out = join(project, 'api-docs');
      expect(await npx(['docs', '--out', out])).toMatch(/docs written to .*api-docs\/index\.html/);
      const html = await readFile(join(out, 'index.html'), 'utf8');
      expect((await stat(join(out, 'index.html'))).size).toBeGreaterThan(500_000);
      expect(html).toContain('BaaS Customer Update and PIX Key Listing API');
      expect(html).toContain('list-keys');
    }, 120_000);
  });
});
