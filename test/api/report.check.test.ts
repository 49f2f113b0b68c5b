// The recorded public surface, against the declarations of the working tree: api/*.api.md is what
// @microsoft/api-extractor reports of them, one report per entry point. An export added, removed or
// changed fails here until the reports are regenerated (`npm run api:report`) and the change is
// reviewed with them; any ae-* message fails too (the script treats every one as an error and writes
// no report). Run by `npm run check` (and CI): a declaration build and api-extractor take about 10 s
// of CPU.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRIES } from '../../scripts/lib/entries.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

function check(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'scripts/api-report.mjs'), '--check'], {
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
});
