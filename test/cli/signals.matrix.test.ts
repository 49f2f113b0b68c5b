// `npm run mock` and `npm run sandbox` as a user runs them: the mock logs each request, and when their
// parent (npm) gets SIGINT, SIGTERM or SIGHUP, or is killed outright, nothing is left behind: no process
// of the tree, and the port is free for the next start. A matrix test: each case starts npm, Node and
// (for the mock) Prism.
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { freePort } from '../../src/testing/mock.js';
import { descendants, eventually, expectNothingLeft, killTree, startSandboxCommand, startUntil } from './processes.js';

const TOKEN = 'tok-NEVER-LOGGED-987654';
const CPF = '52998224725';
const started: number[] = [];
afterEach(() => {
  killTree(started.splice(0));
});

async function startMockCommand() {
  const port = await freePort();
  const run = startUntil(
    'npm',
    ['run', '--silent', 'mock', '--', '--port', String(port)],
    /Mock listening on (http:\/\/\S+)/,
    { cwd: repoRoot },
  );
  await run.ready;
  const pid = run.child.pid!;
  // npm, the shell it may use, our node process and Prism: all must be gone after the stop.
  const tree = [pid, ...descendants(pid)];
  started.push(...tree);
  return { ...run, port, pid, tree, url: `http://127.0.0.1:${port}` };
}

describe('npm run mock', () => {
  it('logs one line per request (method, path, status; the fields of a 422), never a token or a CPF', async () => {
    const mock = await startMockCommand();
    expect(mock.tree.length, 'npm, node and Prism').toBeGreaterThanOrEqual(3);
    const headers = { authorization: `Bearer ${TOKEN}`, 'user-agent': 'test/1', 'content-type': 'application/json' };
    expect((await fetch(`${mock.url}/v2/api/pix/keys/list-keys`, { headers })).status).toBe(200);
    const update = `${mock.url}/v2/api/baas-onboarding/account/natural-person?account=300541976902&documentNumber=${CPF}`;
    const bad = await fetch(update, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ email: 'not-an-email', address: { state: 'XX' } }),
    });
    expect(bad.status).toBe(422);
    expect(await eventually(() => /natural-person HTTP 422/.test(mock.output()), 5_000)).toBe(true);
    const log = mock.output();
    expect(log).toMatch(/^GET \/v2\/api\/pix\/keys\/list-keys HTTP 200 in \d+ ms$/m);
    expect(log).toMatch(
      /^PUT \/v2\/api\/baas-onboarding\/account\/natural-person HTTP 422 in \d+ ms, fields: .*\/email.*\/address\/postalCode/m,
    );
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(CPF);
    process.kill(mock.pid, 'SIGTERM');
    await expectNothingLeft(mock.tree, mock.port);
  }, 60_000);

  it('leaves no Prism behind even when the command-line process itself is killed outright (SIGKILL)', async () => {
    const mock = await startMockCommand();
    const node = descendants(mock.pid).find((pid) => descendants(pid).length > 0);
    expect(node, 'the node process that started Prism').toBeDefined();
    process.kill(node!, 'SIGKILL');
    // Prism sees its parent go (the IPC watchdog), and npm ends with its script.
    await expectNothingLeft(mock.tree, mock.port);
  }, 60_000);

  for (const signal of ['SIGINT', 'SIGHUP', 'SIGKILL'] as const) {
    it(`stops with npm on ${signal}: no process left, the port free`, async () => {
      const mock = await startMockCommand();
      process.kill(mock.pid, signal);
      await expectNothingLeft(mock.tree, mock.port);
    }, 60_000);
  }
});

describe('npm run sandbox', () => {
  for (const signal of ['SIGINT', 'SIGHUP', 'SIGKILL'] as const) {
    it(`stops with its parent (npm) on ${signal}: no process left, the port free`, async () => {
      const sandbox = await startSandboxCommand(started, '--seed', signal);
      expect(sandbox.tree.length, 'npm and node').toBeGreaterThanOrEqual(2);
      process.kill(sandbox.pid, signal);
      await expectNothingLeft(sandbox.tree, sandbox.port);
    }, 60_000);
  }
});
