// The README says what the matrix installs as root: every Debian package a test installs through
// scripts/lib/debian-tool.mjs (each `debianTool({ … pkg: '…' … })` of scripts/lib/) and its variable.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const lib = join(repoRoot, 'scripts/lib');
const tools = readdirSync(lib)
  .filter((name) => name.endsWith('.mjs'))
  .map((name) => readFileSync(join(lib, name), 'utf8'))
  .filter((text) => text.includes("from './debian-tool.mjs'"))
  // A file may declare several tools: each `envVar: '…'` with the `pkg: '…'` after it.
  .flatMap((text) =>
    [...text.matchAll(/\benvVar: '([^']+)',\s*pkg: '([^']+)'/g)].map(([, envVar, pkg]) => ({ envVar, pkg })),
  );

describe("the README's note on the matrix's Debian packages", () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const note = /^The matrix needs Debian programs:[\s\S]*?\n\n/m.exec(readme)?.[0] ?? '';

  it('says they are installed as root with apt-get', () => {
    expect(note).toMatch(/as root/);
    expect(note).toMatch(/apt-get install/);
  });

  it('names every package a test installs, and the variable that points at one already there', () => {
    expect(tools.length).toBeGreaterThanOrEqual(5);
    for (const { pkg, envVar } of tools) {
      expect(note, `README's note: ${pkg}`).toContain(`\`${pkg}\``);
      expect(note, `README's note: ${envVar}`).toContain(`\`${envVar}\``);
    }
  });
});
