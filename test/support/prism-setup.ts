// The global setup of the `prism` and `prism-isolated` projects (vitest.config.ts): one Prism mock for
// the files that read it (`inject('mockUrl')`), on a free 127.0.0.1 port, started only when at least
// one of them runs (vitest starts a project's global setup only for a project with files to run);
// stopped in teardown, and by startMock's exit hooks when the run is interrupted.
//
// Both projects' setups run in vitest's main process, each module of its own: the one Prism is kept
// there on a registry symbol, started by the first setup and stopped by the last teardown, so that a
// run of both pays one start (about 2 s of CPU), not two.
import type { TestProject } from 'vitest/node';
import { type RunningMock, startMock } from '../../src/testing/mock.js';

interface Shared {
  mock: Promise<RunningMock>;
  users: number;
}
const KEY = Symbol.for('baas-pix-contract.prism-setup');
const registry = globalThis as { [KEY]?: Shared };

export async function setup(project: TestProject): Promise<void> {
  // Prism's start is seconds of CPU: on a loaded machine it can take minutes, never a failure.
  registry[KEY] ??= { mock: startMock({ readyTimeoutMs: 300_000 }), users: 0 };
  const shared = registry[KEY];
  shared.users += 1;
  project.provide('mockUrl', (await shared.mock).url);
}

export async function teardown(): Promise<void> {
  const shared = registry[KEY];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  delete registry[KEY];
  await (await shared.mock).stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}
