// Every top-level examples/*.ts against the command-line sandbox (one for the whole file, on 127.0.0.1
// port 0), once with BAAS_BASE_URL and BAAS_TOKEN and once with client credentials, each run making its
// own requests to that service. A matrix test: 2 child processes per example beside a sandbox process.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { eventually, startUntil } from '../cli/processes.js';
import { baseEnv, examples, runExample, shown } from './run-example.js';

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

  /** The sandbox's request log lines (one per request), e.g. `GET /v2/api/pix/keys/list-keys HTTP 200 in 2 ms`. */
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
      sent.some((line) => line.startsWith('POST /oauth/token HTTP 200')),
      sent.join('\n'),
    ).toBe(true);
  });
});
