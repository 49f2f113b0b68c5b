// The manifest a consumer relies on: a public ESM package without side effects, one run-time
// dependency, Prism as an optional peer, and the entry points the README documents. The packed
// tarball itself is checked in consumer.test.ts, which builds it once for both jobs.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

interface Manifest {
  name: string;
  private?: boolean;
  type: string;
  sideEffects: boolean;
  engines: { node: string };
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
}

const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe('package.json', () => {
  it('is the public package baas-pix-contract, ESM, without side effects', () => {
    expect(manifest.name).toBe('baas-pix-contract');
    expect(manifest.private).toBeUndefined();
    expect(manifest.type).toBe('module');
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.engines.node).toMatch(/^>=20(\.\d+)*$/);
  });

  it('depends at run time on openapi-fetch only; Prism, undici (for tls) and the sandbox helpers are optional peers and dev dependencies', () => {
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(manifest.peerDependencies['@stoplight/prism-cli']).toBe(manifest.devDependencies['@stoplight/prism-cli']);
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['@faker-js/faker', '@hono/node-server', '@stoplight/prism-cli', 'msw', 'undici']);
    for (const peer of Object.keys(manifest.peerDependencies)) {
      expect(manifest.peerDependenciesMeta[peer]?.optional, peer).toBe(true);
      expect(manifest.devDependencies[peer], peer).toBeDefined();
    }
  });

  it('exports the client, the testing helpers and the bundled spec, typed', () => {
    expect(Object.keys(manifest.exports).sort()).toEqual(['.', './openapi.json', './openapi.yaml', './package.json', './sandbox', './testing']);
    for (const entry of ['.', './testing', './sandbox']) expect(Object.keys(manifest.exports[entry] as object), entry).toEqual(['types', 'default']);
  });

  it('ships only dist/ (npm adds package.json, README and LICENSE) and builds it before packing', () => {
    expect(manifest.files).toEqual(['dist', 'README.md']);
    expect(manifest.scripts.prepack).toBe('node scripts/build.mjs');
  });
});
