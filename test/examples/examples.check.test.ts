// Every top-level examples/*.ts runs as a user runs it (`npx tsx examples/<file>.ts`, a child process)
// and exits 0 with no environment, against the sandbox it creates in process; with BAAS_BASE_URL and no
// credentials it names the variables to set. examples/*.test.ts run through vitest with the examples'
// own config. The runs against a command-line sandbox are in cli-sandbox.matrix.test.ts.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it, describe } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { baseEnv, examples, exampleTests, runExample, shown } from './run-example.js';

it('has the examples the guides name, and a test', () => {
  expect(examples).toEqual(
    expect.arrayContaining([
      'first-call.ts',
      'update-person.ts',
      'list-page.ts',
      'walk-keys.ts',
      'errors.ts',
      'client-credentials.ts',
    ]),
  );
  expect(exampleTests).toContain('sandbox.test.ts');
});

describe('with no environment: a sandbox in process', () => {
  it.each(examples)('%s exits 0', async (file) => {
    const run = await runExample(file, baseEnv());
    expect(run.code, shown(run)).toBe(0);
    expect(run.stdout, shown(run)).not.toBe('');
  });
});

// BAAS_BASE_URL with the token forgotten: the example names what is missing, instead of failing later
// on an empty token URL. first-call.ts reads the environment itself; the others through support/service.ts.
describe('with BAAS_BASE_URL and no credentials', () => {
  it.each(['first-call.ts', 'list-page.ts'])('%s exits 2 naming the variables to set', async (file) => {
    const run = await runExample(file, { ...baseEnv(), BAAS_BASE_URL: 'http://127.0.0.1:9', BAAS_CLIENT_ID: 'id' });
    expect(run.code, shown(run)).toBe(2);
    for (const name of ['BAAS_TOKEN', 'BAAS_TOKEN_URL', 'BAAS_CLIENT_SECRET'])
      expect(run.stderr, shown(run)).toContain(name);
    // BAAS_CLIENT_ID is given, so it is not named as missing.
    expect(run.stderr, shown(run)).not.toContain('BAAS_CLIENT_ID');
  });
});

it("examples' tests pass through vitest", async () => {
  const vitest = join(repoRoot, 'node_modules/vitest/vitest.mjs');
  const run = await promisify(execFile)(
    process.execPath,
    [vitest, 'run', '--config', 'examples/support/vitest.config.ts', '--reporter=dot'],
    {
      cwd: repoRoot,
      env: baseEnv(),
      timeout: 60_000,
    },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  expect(run.code, shown(run)).toBe(0);
  expect(run.stdout).toMatch(new RegExp(`Test Files\\s+${exampleTests.length} passed`));
}, 90_000);
