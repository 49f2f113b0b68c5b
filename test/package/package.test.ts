// The manifest a consumer relies on: a public package without side effects, both module formats,
// one run-time dependency, Prism and Redocly as optional peers, the entry points of
// scripts/lib/entries.mjs, the bin, and engines that say what is tested. The packed tarball itself is
// checked in consumer.matrix.test.ts, which builds it once for both jobs.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, ENTRIES, manifestFields } from '../../scripts/lib/entries.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { NODE_MAJORS } from './node-versions.js';

interface Manifest {
  name: string;
  private?: boolean;
  type: string;
  sideEffects: boolean;
  engines: { node: string };
  exports: Record<string, unknown>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
}

const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as Manifest &
  Record<string, unknown>;

describe('package.json', () => {
  it('is the public package baas-pix-contract, without side effects', () => {
    expect(manifest.name).toBe('baas-pix-contract');
    expect(manifest.private).toBeUndefined();
    expect(manifest.type).toBe('module');
    expect(manifest.sideEffects).toBe(false);
  });

  it('engines names exactly the Node.js lines the consumer tests run on', () => {
    const majors = manifest.engines.node.split('||').map((range) => Number(/^\s*\^(\d+)\./.exec(range)?.[1]));
    expect(majors).toEqual([...NODE_MAJORS]);
  });

  it("depends at run time on openapi-fetch, csv-parse (the command line's CSV reader) and proper-lockfile (the batch journals' lease) only; Prism, Redocly, undici (for tls), OpenTelemetry, ExcelJS (.xlsx) and the sandbox helpers are optional peers and dev dependencies", () => {
    expect(Object.keys(manifest.dependencies)).toEqual(['csv-parse', 'openapi-fetch', 'proper-lockfile']);
    for (const peer of ['@stoplight/prism-cli', '@redocly/cli'])
      expect(manifest.peerDependencies[peer], peer).toBe(manifest.devDependencies[peer]);
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([
      '@faker-js/faker',
      '@hono/node-server',
      '@opentelemetry/api',
      '@redocly/cli',
      '@stoplight/prism-cli',
      'exceljs',
      'msw',
      'undici',
    ]);
    for (const peer of Object.keys(manifest.peerDependencies)) {
      expect(manifest.peerDependenciesMeta[peer]?.optional, peer).toBe(true);
      expect(manifest.devDependencies[peer], peer).toBeDefined();
    }
  });

  it('exports, typesVersions, main/module/types and bin are the ones derived from scripts/lib/entries.mjs (npm run sync:exports)', () => {
    for (const [key, value] of Object.entries(manifestFields()))
      expect(manifest[key], `${key}: run \`npm run sync:exports\``).toEqual(value);
    expect(Object.keys(manifest.exports)).toEqual([
      ...Object.keys(ENTRIES),
      './openapi.yaml',
      './openapi.json',
      './package.json',
    ]);
    expect(manifest.bin).toEqual({ 'baas-pix-contract': CLI_BIN });
  });

  it("tsconfig.json's paths name every entry's source, so examples and tests import the package by name from a fresh clone (no dist/)", async () => {
    const tsconfig = await readFile(join(repoRoot, 'tsconfig.json'), 'utf8');
    // A pattern, not a JSONC parser: the paths' lines are plain `"name": ["./file"]` pairs.
    const paths = Object.fromEntries(
      [...tsconfig.matchAll(/"(baas-pix-contract(?:\/[a-z-]+)?)": \["\.\/([^"]+)"\]/g)].map((m) => [m[1], m[2]]),
    );
    expect(paths).toEqual(
      Object.fromEntries(
        Object.entries(ENTRIES).map(([subpath, source]) => [
          subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          source,
        ]),
      ),
    );
  });

  it('ships dist/ and the documents the README links to (npm adds package.json and LICENSE), builds dist/ on a git install, and packs through `npm run tarball`', () => {
    // The guides, examples, spec sources, changelog, security notes and benchmarks; contributor
    // material (CONTRIBUTING, TESTING, ARCHITECTURE, src/, test/) stays in the repository.
    expect(manifest.files).toEqual([
      'dist',
      'README.md',
      'CHANGELOG.md',
      'SECURITY.md',
      'BENCHMARKS.md',
      'docs/guides',
      'docs/guias',
      'docs/api-surface.md',
      'examples',
      'openapi',
    ]);
    // prepare is the only script npm runs when installing from a git URL (pacote), so a git install
    // gets a built dist/. A tarball is packed by `npm run tarball` from a staged copy whose package.json
    // has no scripts; prepack stops a plain `npm pack` or `npm publish` here (test/size/tarball.matrix.test.ts).
    expect(manifest.scripts.prepare).toBe('node scripts/build.mjs');
    expect(manifest.scripts.tarball).toBe('node scripts/pack.mjs');
    expect(manifest.scripts.prepack).toBe('node scripts/pack.mjs --refuse');
  });

  it("npm start and npm run mock run the command line (exec, so the process is npm's own child)", () => {
    expect(manifest.scripts.mock).toBe('exec node --import tsx src/cli/index.ts mock');
    expect(manifest.scripts.start).toBe('exec node --import tsx scripts/start.ts');
    // scripts/start.ts hands over to the same main() after its build steps.
  });
});
