// The matrix's global setup (vitest.matrix.config.ts): a folder of the run's own for fixtures that
// several test files share (the packed tarball, test/package/pack.ts), made on demand by the first
// file that needs one and removed with the folder in teardown.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

let packDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  packDir = await mkdtemp(join(tmpdir(), 'baas-run-'));
  project.provide('packDir', packDir);
}

export async function teardown(): Promise<void> {
  if (packDir) await rm(packDir, { recursive: true, force: true });
}
