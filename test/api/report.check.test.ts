// The recorded public surface, against the declarations of the working tree: api/*.api.md is what
// @microsoft/api-extractor reports of them, one report per entry point. An export added, removed or
// changed fails here until the reports are regenerated (`npm run api:report`) and the change is
// reviewed with them; any ae-* message fails too (the script treats every one as an error and writes
// no report). Run by `npm run check` (and CI): a declaration build and api-extractor take about 10 s
// of CPU.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRIES } from '../../scripts/lib/entries.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

function check(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'scripts/api-report.mjs'), '--check', ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the API reports', () => {
  it('are committed, one per entry point', async () => {
    const reports = (await readdir(join(repoRoot, 'api'))).filter((file) => file.endsWith('.api.md')).sort();
    const expected = Object.keys(ENTRIES)
      .map((subpath) => `baas-pix-contract${subpath === '.' ? '' : `-${subpath.slice(2)}`}.api.md`)
      .sort();
    expect(reports).toEqual(expected);
  });

  it('match the declarations of every entry point, with no api-extractor message (else: npm run api:report, and review the change)', async () => {
    const { code, output } = await check();
    expect(output).toContain('api/: the public surface is as recorded');
    expect(code, output).toBe(0);
  });

  it('fail when a recorded report differs from the declarations, naming the entry and the line', async () => {
    // The comparison itself, seen to fail: the recorded reports with one export line taken out, as a
    // declaration added without `npm run api:report` would leave them.
    const folder = await mkdtemp(join(tmpdir(), 'api-report-'));
    try {
      await cp(join(repoRoot, 'api'), folder, { recursive: true });
      const report = join(folder, 'baas-pix-contract.api.md');
      const lines = (await readFile(report, 'utf8')).split('\n');
      const dropped = lines.findIndex((line) => line.startsWith('export function createBaasClient'));
      expect(dropped, 'the root report declares createBaasClient').toBeGreaterThan(-1);
      await writeFile(report, lines.filter((_, index) => index !== dropped).join('\n'));
      const { code, output } = await check('--against', folder);
      expect(code, output).toBe(1);
      expect(output).toContain('The public surface changed: baas-pix-contract (api/baas-pix-contract.api.md)');
      expect(output).toContain(`  + ${lines[dropped]}`);
      expect(output).toContain('run `npm run api:report` and commit api/');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
