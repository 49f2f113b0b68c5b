// The recorded public surface, against the declarations of today: api/*.api.md is what
// @microsoft/api-extractor reports of them. An export added, removed or changed fails here until the
// reports are regenerated (`npm run api:report`) and the change is reviewed with them; any ae-* message
// fails too (the script treats them as errors and writes no report). A matrix test: a declaration build
// and api-extractor take about 10 s of CPU (`npm run test:matrix`, and CI); report.test.ts, in npm test,
// checks the committed reports themselves.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
  it('match the declarations of every entry point (else: npm run api:report, and review the change)', async () => {
    const { code, output } = await check();
    expect(output).not.toMatch(/changed/);
    expect(code, output).toBe(0);
  }, 120_000);
});
