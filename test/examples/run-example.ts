// Running the top-level examples/*.ts as a user runs them (`npx tsx examples/<file>.ts`, a child
// process): shared by examples.test.ts (in process) and cli-sandbox.matrix.test.ts (a command-line sandbox).
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../scripts/lib/paths.mjs';

export const EXAMPLES = join(repoRoot, 'examples');
export const examples = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .sort();
export const exampleTests = readdirSync(EXAMPLES).filter((name) => name.endsWith('.test.ts'));

// The parent's own settings must not leak in: this run's VITEST_*, loaders, and any BAAS_* of the shell.
export const baseEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|NODE_OPTIONS|FORCE_COLOR|BAAS_)/.test(name)),
  ),
  NO_COLOR: '1',
});

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npx tsx examples/<file>` without npx's own start-up: Node with tsx's loader, from the repository root. */
export function runExample(file: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', join('examples', file)], {
    cwd: repoRoot,
    env,
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

export const shown = (run: Run) => `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
