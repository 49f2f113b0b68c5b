// Every top-level examples/*.ts runs as a user runs it (`npx tsx examples/<file>.ts`, a child process)
// and exits 0: with no environment, against the sandbox it creates in process; then against the
// command-line sandbox (one for the whole file, on 127.0.0.1 port 0), once with BAAS_BASE_URL and
// BAAS_TOKEN and once with client credentials, each run making its own requests to that service.
// examples/*.test.ts run through vitest with the examples' own config.
import { execFile, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { eventually, startUntil } from '../cli/processes.js';

const EXAMPLES = join(repoRoot, 'examples');
const examples = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .sort();
const exampleTests = readdirSync(EXAMPLES).filter((name) => name.endsWith('.test.ts'));

// The parent's own settings must not leak in: this run's VITEST_*, loaders, and any BAAS_* of the shell.
const baseEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|NODE_OPTIONS|FORCE_COLOR|BAAS_)/.test(name)),
  ),
  NO_COLOR: '1',
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npx tsx examples/<file>` without npx's own start-up: Node with tsx's loader, from the repository root. */
function runExample(file: string, env: NodeJS.ProcessEnv): Promise<Run> {
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

const shown = (run: Run) => `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

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

describe('against the command-line sandbox', () => {
  let server: ChildProcess | undefined;
  let output: () => string = () => '';
  let url = '';
  let token = '';
  let credentials: { BAAS_TOKEN_URL: string; BAAS_CLIENT_ID: string; BAAS_CLIENT_SECRET: string };

  beforeAll(async () => {
    const started = startUntil(
      process.execPath,
      ['--import', 'tsx', 'src/cli/index.ts', 'sandbox', '--port', '0', '--seed', 'examples-test'],
      /Sandbox listening on .*\n/,
      {
        cwd: repoRoot,
      },
    );
    server = started.child;
    output = started.output;
    await started.ready;
    const banner = output();
    url = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
    token = /client 1: Authorization: Bearer (\S+)/.exec(banner)![1]!;
    const [, clientId, clientSecret] = /client_id=(\S+) {2}client_secret=(\S+)/.exec(banner)!;
    credentials = {
      BAAS_TOKEN_URL: /Token URL .*: (\S+)$/m.exec(banner)![1]!,
      BAAS_CLIENT_ID: clientId!,
      BAAS_CLIENT_SECRET: clientSecret!,
    };
  }, 60_000);

  afterAll(async () => {
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });

  /** The sandbox's request log lines (one per request), e.g. `GET /v2/api/pix/keys/list-keys 200 (2 ms)`. */
  const requests = () =>
    output()
      .split('\n')
      .filter((line) => /^(GET|PUT|POST) \//.test(line));

  async function runAgainstSandbox(file: string, env: NodeJS.ProcessEnv): Promise<string[]> {
    const before = requests().length;
    const run = await runExample(file, { ...baseEnv(), BAAS_BASE_URL: url, ...env });
    expect(run.code, shown(run)).toBe(0);
    // The log line of the last request may be written just after the example has its answer.
    expect(
      await eventually(() => requests().length > before, 10_000),
      `${file} sent nothing to ${url}\n${shown(run)}`,
    ).toBe(true);
    return requests().slice(before);
  }

  it.each(examples)('%s with BAAS_TOKEN', async (file) => {
    const sent = await runAgainstSandbox(file, { BAAS_TOKEN: token });
    expect(sent.filter((line) => line.startsWith('POST /oauth/token'))).toEqual([]);
  });

  it.each(examples)('%s with BAAS_TOKEN_URL, BAAS_CLIENT_ID and BAAS_CLIENT_SECRET', async (file) => {
    const sent = await runAgainstSandbox(file, credentials);
    expect(
      sent.some((line) => line.startsWith('POST /oauth/token 200')),
      sent.join('\n'),
    ).toBe(true);
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
