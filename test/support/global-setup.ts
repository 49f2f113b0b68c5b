// One Prism mock for the whole run, on a free 127.0.0.1 port; stopped in teardown, and by
// startMock's exit hooks when the run is interrupted. And a folder of the run's own for fixtures
// that several test files share (the packed tarball, test/package/pack.ts), made on demand by the
// first file that needs one and removed with the folder in teardown.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startMock, type RunningMock } from '../../src/testing/mock.js';

let mock: RunningMock | undefined;
let packDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  packDir = await mkdtemp(join(tmpdir(), 'baas-run-'));
  project.provide('packDir', packDir);
  mock = await startMock();
  project.provide('mockUrl', mock.url);
}

export async function teardown(): Promise<void> {
  await mock?.stop();
  if (packDir) await rm(packDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}
