// The commands that need an optional peer (mock: Prism; docs: the Redocly CLI; sandbox: Faker and
// @hono/node-server), run where it is not installed: the bundled command line copied into a folder
// whose node_modules holds the package's own dependencies and none of its peers, as a project that
// installed the package alone has it, each run a real process. Each says which peer, the exact npm
// command that installs it, and exits 2 (something must change before a rerun can work), before
// starting anything.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { cliPath } from '../support/cli.js';

// What the bundle imports at start (its `packages: 'external'`): linked from the repository's node_modules.
const DEPENDENCIES = ['openapi-fetch', 'p-limit', 'proper-lockfile', 'csv-parse', '@noble/hashes'];

let dir: string;
let cli: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'no-peers-'));
  cpSync(dirname(cliPath()), join(dir, 'cli'), { recursive: true });
  cli = join(dir, 'cli', 'cli.mjs');
  for (const name of DEPENDENCIES) {
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', name), link, 'dir');
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => {
  const ran = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
};

describe('a command whose optional peer is not installed', () => {
  it('the bundle runs there: --help works without any peer', () => {
    const ran = run('mock', '--help');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('Needs Prism (@stoplight/prism-cli@~5.14), an optional peer of this package');
  });

  it('mock: names Prism and the npm command that installs it, exit 2, nothing started', () => {
    const ran = run('mock', '--port', '0');
    expect({ code: ran.code, stdout: ran.stdout, stderr: ran.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'baas-pix-contract mock: needs Prism (@stoplight/prism-cli), an optional peer of this package that is not installed here: install it with `npm install --save-dev @stoplight/prism-cli@~5.14` (5.15 and later need Node 24), then run the command again\n',
    });
  });

  it('is quoted by the troubleshooting guides as mock prints it', () => {
    const printed = run('mock').stderr.trimEnd();
    for (const page of ['docs/guides/troubleshooting.md', 'docs/guias/troubleshooting.md'])
      expect(readFileSync(join(repoRoot, page), 'utf8')).toContain(`\`\`\`text\n${printed}\n\`\`\``);
  });

  it('docs: names the Redocly CLI and its npm command, exit 2, no folder made', () => {
    const out = join(dir, 'site');
    const ran = run('docs', '--out', out);
    expect([ran.code, ran.stderr]).toEqual([
      2,
      'baas-pix-contract docs: needs the Redocly CLI (@redocly/cli), an optional peer of this package that is not installed here: install it with `npm install --save-dev @redocly/cli@^2`, then run the command again\n',
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it('sandbox: both peers in one npm command, exit 2', () => {
    const ran = run('sandbox', '--port', '0');
    expect([ran.code, ran.stderr]).toEqual([
      2,
      "baas-pix-contract sandbox: needs Faker (@faker-js/faker) and Hono's Node server (@hono/node-server), optional peers of this package that are not installed here: install them with `npm install --save-dev @faker-js/faker@^10 @hono/node-server@^2`, then run the command again\n",
    ]);
  });
});
