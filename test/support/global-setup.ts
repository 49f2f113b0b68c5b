// One Prism mock for the whole run, on a free 127.0.0.1 port; stopped in teardown, and by
// startMock's exit hooks when the run is interrupted.
import type { TestProject } from 'vitest/node';
import { startMock, type RunningMock } from '../../src/testing/mock.js';

let mock: RunningMock | undefined;

export async function setup(project: TestProject): Promise<void> {
  mock = await startMock();
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
