// The figures of the README and the guides that only a measurement gives, measured: the largest
// sandbox's RSS (the README, the sandbox's help and the testing guide say LARGEST_RSS), and the
// tarball's file count and sizes as `npm run tarball -- --dry-run` prints them (the testing guide's
// "What `npm pack` ships"). A drift fails here instead of living on in the docs.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { run } from '../../scripts/lib/run.mjs';
import { LARGEST_RSS } from '../../src/cli/sandbox.js';
import { type PackedTarball, sharedPack } from '../package/pack.js';

/** The largest sandbox SANDBOX_LIMITS allows, in its most costly shape, built in a process of its own. */
const LARGEST = `
import { createSandbox } from './src/sandbox/index.ts';
import { SANDBOX_LIMITS as L } from './src/sandbox/limits.ts';
const sandbox = createSandbox({ seed: 'largest', clients: L.clients, accountsPerClient: L.accounts / L.clients, keysPerAccount: Math.floor(L.keys / L.accounts) });
globalThis.gc();
console.log(JSON.stringify({ rss: process.memoryUsage().rss, clients: sandbox.clients.length }));
`;

// npm's own rounding (1 decimal, powers of 1000), so the guide's figures are what npm prints.
const npmSize = (bytes: number) =>
  bytes < 1_000
    ? `${bytes} B`
    : bytes < 1_000_000
      ? `${(bytes / 1_000).toFixed(1)} kB`
      : `${(bytes / 1_000_000).toFixed(1)} MB`;

describe('the sandbox at its largest', () => {
  it(`takes the RSS the README states (${LARGEST_RSS}), within 5 %`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', LARGEST],
      // About 12 s idle, 107 s at load 16: a ceiling well above both, not a guess of the machine's speed.
      { cwd: repoRoot, timeout: 600_000, maxBuffer: 1 << 20 },
    );
    const { rss, clients } = JSON.parse(stdout) as { rss: number; clients: number };
    expect(clients).toBe(1_000);
    const measured = rss / 1024 / 1024;
    const stated = Number.parseInt(LARGEST_RSS, 10);
    console.log(`largest sandbox: ${measured.toFixed(1)} MB of RSS measured, ${LARGEST_RSS} stated`);
    expect(Math.abs(measured - stated) / measured, `measured ${measured.toFixed(1)} MB: set LARGEST_RSS`).toBeLessThan(
      0.05,
    );
  });
});

describe("the testing guide's tarball figures", () => {
  let packed: PackedTarball;
  beforeAll(async () => {
    packed = await sharedPack();
  }, 600_000);

  it.each(['docs/guides/testing.md', 'docs/guias/testing.md'])(
    '%s: files, packed and unpacked size as npm prints them',
    async (guide) => {
      const text = readFileSync(join(repoRoot, guide), 'utf8');
      // `tar -tvzf` lists each file's size (its third column): their sum is npm's "unpacked size".
      const listing = String(await run('tar', ['-tvzf', packed.tarball]));
      const entries = listing.split('\n').filter((line) => line.startsWith('-'));
      const unpacked = entries.reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[2]), 0);
      const packedSize = (await stat(packed.tarball)).size;
      expect(entries.length).toBe(packed.files.length);
      const decimal = guide.includes('guias') ? (s: string) => s.replace('.', ',') : (s: string) => s;
      const figures = /(\d+) (?:files|arquivos), ([\d.,]+ [kM]?B)[^(]*\(([\d.,]+ [kM]?B)/.exec(text);
      expect(figures, `${guide}: "N files, X MB packed (Y MB unpacked"`).not.toBeNull();
      expect(figures!.slice(1)).toEqual([
        String(packed.files.length),
        decimal(npmSize(packedSize)),
        decimal(npmSize(unpacked)),
      ]);
    },
  );
});
