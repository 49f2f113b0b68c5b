// The repository stays light to clone and to install: no tracked file over 1 MB (generated churn such
// as StrykerJS's incremental file stays out of git), and the tools only the matrix and mutation
// testing use come from the tool cache (tools/<name>/, scripts/lib/tools.mjs), pinned by committed
// lock files, not from the repository's devDependencies.
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { ensureTool, toolNames } from '../../scripts/lib/tools.mjs';

const git = async (...args: string[]) => (await promisify(execFile)('git', args, { cwd: repoRoot })).stdout;
const readJson = async (path: string) => JSON.parse(await readFile(join(repoRoot, path), 'utf8'));

describe('the repository', () => {
  it('tracks no file over 1 MB', async () => {
    const files = (await git('ls-files', '-z')).split('\0').filter(Boolean);
    const sizes = await Promise.all(
      files.map(async (file) => ({
        file,
        bytes: await stat(join(repoRoot, file)).then(
          (s) => s.size,
          () => 0,
        ),
      })),
    );
    expect(sizes.filter(({ bytes }) => bytes > 1_000_000)).toEqual([]);
  });

  it("ignores StrykerJS's incremental file and the tool cache's installs", async () => {
    const ignored = await git('check-ignore', 'reports/mutation/incremental.json', 'tools/jest/node_modules/x');
    expect(ignored.trim().split('\n')).toEqual(['reports/mutation/incremental.json', 'tools/jest/node_modules/x']);
    // scores.json, the table's source, stays.
    await expect(git('check-ignore', 'reports/mutation/scores.json')).rejects.toThrow();
  });
});

describe('the tool cache', () => {
  const names = toolNames();

  it('holds the tools the matrix and mutation testing use, none of them a devDependency', async () => {
    expect(names).toEqual(
      expect.arrayContaining(['attw', 'bun', 'deno', 'jest', 'playwright-core', 'stryker', 'typescript-7', 'workerd']),
    );
    const { devDependencies } = (await readJson('package.json')) as { devDependencies: Record<string, string> };
    const major = (range: string) => range.match(/\d+/)?.[0];
    for (const name of names) {
      const { dependencies } = (await readJson(`tools/${name}/package.json`)) as {
        dependencies: Record<string, string>;
      };
      // Another major of a devDependency is a tool of its own (TypeScript 7 beside the repository's 5.9);
      // a tool may pin the TypeScript it is built against (the code generators).
      for (const [dependency, version] of Object.entries(dependencies).filter(([name]) => name !== 'typescript'))
        expect(major(devDependencies[dependency] ?? 'none'), `${name}: ${dependency}`).not.toBe(major(version));
    }
  });

  it.each(names)('pins %s exactly, its lock file holding the same versions', async (name) => {
    const manifest = await readJson(`tools/${name}/package.json`);
    const lock = await readJson(`tools/${name}/package-lock.json`);
    expect(lock.packages[''].dependencies).toEqual(manifest.dependencies);
    for (const [dependency, version] of Object.entries(manifest.dependencies as Record<string, string>)) {
      expect(version, `${name}: ${dependency}`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(lock.packages[`node_modules/${dependency}`].version).toBe(version);
    }
  });

  it('refuses a tool it does not have, naming it and the tools it has', async () => {
    const error = await ensureTool('no-such-tool').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('"no-such-tool"');
    for (const name of names) expect((error as Error).message).toContain(name);
  });
});

describe('the two commands', () => {
  it('npm test runs the quick suite; npm run check the types, lint, lock file and checks; test:all adds the matrix; CI runs all three', async () => {
    const { scripts } = await readJson('package.json');
    expect(scripts.test).toBe('vitest run');
    for (const step of [
      'scripts/check-lockfile.mjs',
      'npm run typecheck',
      'biome ci',
      '--config vitest.check.config.ts',
    ])
      expect(scripts.check).toContain(step);
    expect(scripts['test:matrix']).toContain('--config vitest.matrix.config.ts');
    expect(scripts['test:all']).toBe('node scripts/test-all.mjs');
    const ci = await readFile(join(repoRoot, '.ci/run'), 'utf8');
    const commands = ci.split('\n').filter((line) => /^npm (test|run)/.test(line));
    expect(commands).toEqual(
      expect.arrayContaining(['npm run tools', 'npm test', 'npm run check', 'npm run test:matrix']),
    );
  });

  // A contributor reads one of these first: each names the same three commands, and installs with npm ci
  // (what .ci/run does; npm install may rewrite the lock file).
  it.each(['README.md', 'TESTING.md', 'CONTRIBUTING.md', 'docs/guides/contributing.md', 'docs/guias/contributing.md'])(
    '%s names npm test, npm run check, npm run test:all and npm run test:matrix, and no npm install before them',
    async (page) => {
      const text = await readFile(join(repoRoot, page), 'utf8');
      for (const command of ['`npm test`', '`npm run check`', '`npm run test:all`', '`npm run test:matrix`'])
        expect(text).toContain(command);
      expect(text).not.toMatch(/npm install && npm (test|start)/);
    },
  );
});
