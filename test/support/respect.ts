// Runs Redocly's `respect` on the shipped Arazzo description against a URL and returns, per step,
// the checks that failed. Async (never execFileSync): the server under test lives in this process.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';

export const ARAZZO = 'src/verify/list-keys.arazzo.yaml';

export interface RespectRun {
  exitCode: number;
  /** `stepId: check name` for every failed check. */
  failed: string[];
  steps: string[];
}

export async function respect(
  serverUrl: string,
  token: string,
  inputs: Record<string, string | number> = {},
): Promise<RespectRun> {
  const bin = join(repoRoot, 'node_modules', '.bin', 'redocly');
  const dir = await mkdtemp(join(tmpdir(), 'respect-'));
  // Respect's JSON log holds whole response bodies (personal data): it lives only in this temp dir.
  const log = join(dir, 'respect.json');
  try {
    const exitCode = await new Promise<number>((resolve, reject) => {
      const child = execFile(
        bin,
        [
          'respect',
          ARAZZO,
          '--server',
          `contract=${serverUrl}`,
          '--input',
          `token=${token}`,
          ...Object.entries(inputs).flatMap(([name, value]) => ['--input', `${name}=${value}`]),
          '--json-output',
          log,
          '--max-fetch-timeout',
          '10000',
          '--execution-timeout',
          '60000',
        ],
        { cwd: repoRoot, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
        (error) => {
          if (error && typeof error.code !== 'number')
            reject(new Error(`redocly respect did not run (${error.message}); install dev dependencies with npm ci`));
          else resolve(error ? (error.code as number) : 0);
        },
      );
      child.stdin?.end();
    });
    const json = JSON.parse(await readFile(log, 'utf8'));
    const failed: string[] = [];
    const steps: string[] = [];
    // A `goto` step runs inside a nested workflow entry of its own (type 'workflow', with its executedSteps).
    const visit = (entries: any[]): void => {
      for (const step of entries) {
        if (step.type === 'workflow') {
          visit(step.executedSteps ?? []);
          continue;
        }
        steps.push(step.stepId);
        for (const check of step.checks ?? []) if (!check.passed) failed.push(`${step.stepId}: ${check.name}`);
      }
    };
    for (const file of Object.values<any>(json.files))
      for (const workflow of file.executedWorkflows ?? []) visit(workflow.executedSteps ?? []);
    return { exitCode, failed: failed.sort(), steps };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
