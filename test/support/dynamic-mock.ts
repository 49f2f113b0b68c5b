// A Prism mock in dynamic mode (-d) whose responses are all different and the same on every run.
//
// Prism's own `--seed` re-seeds its generator before *every* response, so a seeded mock serves one
// and the same body per status: 200 requests would check one response 200 times. Instead the mock
// runs without `--seed`, with Math.random replaced by a seeded generator (seeded-random.cjs,
// preloaded through NODE_OPTIONS): each response differs, and the sequence repeats run after run as
// long as the requests come in the same order.
import { fileURLToPath } from 'node:url';
import { startMock, type RunningMock } from '../../src/testing/mock.js';

const preload = fileURLToPath(new URL('./seeded-random.cjs', import.meta.url));

export async function startRepeatableDynamicMock(seed: string): Promise<RunningMock> {
  const saved = { NODE_OPTIONS: process.env.NODE_OPTIONS, BAAS_RANDOM_SEED: process.env.BAAS_RANDOM_SEED };
  process.env.NODE_OPTIONS = `${saved.NODE_OPTIONS ?? ''} --require "${preload}"`.trim();
  process.env.BAAS_RANDOM_SEED = seed;
  try {
    // Prism's start is seconds of CPU: minutes on a loaded machine, never a failure.
    return await startMock({ dynamic: true, readyTimeoutMs: 240_000 });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
