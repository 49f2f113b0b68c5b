// The global setup of the `prism` project (vitest.config.ts): one Prism mock for the files that read
// it (`inject('mockUrl')`), on a free 127.0.0.1 port, started only when at least one of them runs
// (vitest starts a project's global setup only for a project with files to run); stopped in teardown,
// and by startMock's exit hooks when the run is interrupted.
import type { TestProject } from 'vitest/node';
import { type RunningMock, startMock } from '../../src/testing/mock.js';

let mock: RunningMock | undefined;

export async function setup(project: TestProject): Promise<void> {
  // Prism's start is seconds of CPU: on a loaded machine it can take minutes, never a failure.
  mock = await startMock({ readyTimeoutMs: 300_000 });
  project.provide('mockUrl', mock.url);
}

export async function teardown(): Promise<void> {
  await mock?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}
