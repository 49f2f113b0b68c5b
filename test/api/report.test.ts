// The recorded public surface: api/*.api.md, one per entry point, is what @microsoft/api-extractor
// reports of the declarations today. An export added, removed or changed fails here until the reports
// are regenerated (`npm run api:report`) and the change is reviewed with them. A public signature that
// names a type its entry does not export (ae-forgotten-export), or any other ae-* message, fails too:
// the script treats them as errors and writes no report.
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
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
    const reports = (await readdir(join(repoRoot, 'api'))).filter((file) => file.endsWith('.api.md'));
    expect(reports).toHaveLength(Object.keys(ENTRIES).length);
  });

  it('carry no api-extractor warning: every type a signature names can be imported from its entry', async () => {
    const reports = (await readdir(join(repoRoot, 'api'))).filter((file) => file.endsWith('.api.md'));
    for (const report of reports) {
      const warnings = (await readFile(join(repoRoot, 'api', report), 'utf8')).match(/^.*\(ae-[a-z-]+\).*$/gm);
      expect(warnings, report).toBeNull();
    }
  });

  it('match the declarations of every entry point (else: npm run api:report, and review the change)', async () => {
    const { code, output } = await check();
    expect(output).not.toMatch(/changed/);
    expect(code, output).toBe(0);
  }, 120_000);
});
