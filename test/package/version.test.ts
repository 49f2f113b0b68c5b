// One version everywhere: the package's semver is the contract's `info.version` (README, "Version
// policy"), and the client's default User-Agent reports the same one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../src/version.js';

const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const read = (path: string) => readFile(join(repoRoot, path), 'utf8');
// `info:` is the root key whose block holds the first two-space `version:` line.
const yamlInfoVersion = (text: string) => /^info:\n(?:[ \t].*\n|\n)*? {2}version: *['"]?([^'"\s]+)/m.exec(text)?.[1];

describe('the package version', () => {
  it('is semver', () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  });

  it('equals info.version of the hand-written spec and of both bundles', async () => {
    expect(yamlInfoVersion(await read('openapi/openapi.yaml')), 'openapi/openapi.yaml').toBe(manifest.version);
    expect(yamlInfoVersion(await read('src/generated/openapi.yaml')), 'src/generated/openapi.yaml').toBe(
      manifest.version,
    );
    expect(
      (JSON.parse(await read('src/generated/openapi.json')) as { info: { version: string } }).info.version,
      'src/generated/openapi.json',
    ).toBe(manifest.version);
  });

  it('equals the version the client reports in its default User-Agent', () => {
    expect(PACKAGE_NAME).toBe(manifest.name);
    expect(PACKAGE_VERSION).toBe(manifest.version);
  });
});
