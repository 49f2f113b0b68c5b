// The command line the tests start (test/support/cli.ts) is the sources as they are now: its build is
// keyed by a hash of every file it is made from, so an edit to any of them makes a new build, and the
// build behaves as the sources do.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliSourceHash } from '../../scripts/lib/cli-build.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import { capture } from '../cli/in-process.js';
import { cliCommand, cliPath } from './cli.js';

const run = promisify(execFile);

describe('the command line the tests run', () => {
  it('is the build of the sources as they are now', () => {
    expect(basename(dirname(cliPath()))).toBe(`cli-${cliSourceHash()}`);
  });

  it('changes with any source file, a generated one included, and with the tsconfig', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cli-hash-'));
    try {
      await cp(join(repoRoot, 'src'), join(root, 'src'), { recursive: true });
      for (const name of ['tsconfig.json', 'tsconfig.build.json']) await cp(join(repoRoot, name), join(root, name));
      const hashes = [cliSourceHash(root)];
      expect(hashes[0], 'a copy of the sources hashes as they do').toBe(cliSourceHash());
      await writeFile(join(root, 'src/cli/index.ts'), '\n', { flag: 'a' });
      hashes.push(cliSourceHash(root));
      await writeFile(join(root, 'src/generated/openapi.yaml'), '\n', { flag: 'a' });
      hashes.push(cliSourceHash(root));
      await writeFile(join(root, 'src/cli/new-file.ts'), 'export {};\n');
      hashes.push(cliSourceHash(root));
      await writeFile(join(root, 'tsconfig.build.json'), '\n', { flag: 'a' });
      hashes.push(cliSourceHash(root));
      expect(new Set(hashes).size).toBe(hashes.length);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('prints what the sources print: --help, and an unknown command refused with exit 2', async () => {
    const help = await run(...cliCommand(['--help']), { cwd: repoRoot });
    // The sources' answer in this process (main() is what src/cli/index.ts runs), not through tsx in
    // another process (0.7 s of CPU for the same text).
    const io = capture();
    expect(await main(['--help'], COMMANDS, io)).toBe(0);
    expect(help.stdout).toBe(io.stdout.map((line) => `${line}\n`).join(''));
    expect(help.stdout).toMatch(/update-many/);
    const refused = await run(...cliCommand(['no-such-command']), { cwd: repoRoot }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2 });
  });
});
