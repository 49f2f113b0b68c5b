// `npm run sandbox` (the command line's sandbox) as a user runs it: it prints the synthetic tokens
// and accounts to use, serves them with state, logs one line per request (never a token or a CPF;
// the fields of a 422 named), and when its parent (npm) gets SIGINT, SIGTERM or SIGHUP, or is killed
// outright, nothing is left behind: no process of the tree, and the port is free for the next start.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import { freePort } from '../../src/testing/mock.js';
import { capture } from './in-process.js';
import { descendants, eventually, expectNothingLeft, killTree, startUntil } from './processes.js';

// Whether the command line built a sandbox at all (the child processes below are not affected).
const built = vi.hoisted(() => ({ sizes: [] as unknown[] }));
vi.mock('../../src/sandbox/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/sandbox/index.js')>();
  return {
    ...original,
    createSandbox: (options: Parameters<typeof original.createSandbox>[0]) => {
      built.sizes.push(options);
      return original.createSandbox(options);
    },
  };
});

let started: number[] = [];
afterEach(() => {
  killTree(started);
  started = [];
});

async function startSandboxCommand(...args: string[]) {
  const port = await freePort();
  // The banner ends with the curl line: once it is printed, every token and account is there.
  const run = startUntil('npm', ['run', '--silent', 'sandbox', '--', '--port', String(port), ...args], /try: curl .*\n/, { cwd: repoRoot });
  const pid = run.child.pid!;
  run.ready.catch(() => undefined);
  started = [pid];
  await run.ready;
  const tree = [pid, ...descendants(pid)];
  started = tree;
  return { ...run, port, pid, tree, url: `http://127.0.0.1:${port}` };
}

describe('sandbox size limits on the command line (in process)', () => {
  const run = async (...args: string[]) => {
    built.sizes = [];
    const io = capture();
    const code = await main(['sandbox', '--port', '0', ...args], COMMANDS, io);
    return { code, stderr: io.stderr, built: built.sizes.length };
  };

  it('refuses 10^11 keys (1000 clients × 1000 accounts × 100000 keys) as a usage error naming the options and the limit, building nothing', async () => {
    const huge = await run('--clients', '1000', '--accounts', '1000', '--keys', '100000');
    expect(huge.code).toBe(2);
    expect(huge.stderr[0]).toMatch(/^baas-pix-contract sandbox: --clients × --accounts \(customer accounts in all\) must be at most 10,000, got 1,000,000$/);
    expect(huge.stderr[1]).toContain('--help');
    expect(huge.built).toBe(0);
    const keys = await run('--clients', '1', '--accounts', '3', '--keys', '100000');
    expect(keys.code).toBe(2);
    expect(keys.stderr[0]).toMatch(/--clients × --accounts × --keys \(keys in all\) must be at most 250,000, got 300,000$/);
    expect(keys.built).toBe(0);
  });

  it('states the defaults and the limits in --help', async () => {
    const io = capture();
    expect(await main(['sandbox', '--help'], COMMANDS, io)).toBe(0);
    const help = io.stdout.join('\n');
    expect(help).toMatch(/--clients N .*default 2, at most 1,000/);
    expect(help).toMatch(/--accounts N .*default 2, at most 1,000/);
    expect(help).toMatch(/--keys N .*default 5.*at most 100,000/);
    expect(help).toMatch(/10,000 accounts .*250,000 keys/);
  });
});

describe('npm run sandbox', () => {
  it('prints tokens and accounts that work, keeps state, and logs each request without a token or a CPF', async () => {
    const sandbox = await startSandboxCommand('--seed', 'cli-test', '--clients', '2', '--accounts', '1', '--keys', '3');
    const banner = sandbox.output();
    expect(banner).toContain(`Sandbox listening on ${sandbox.url}`);
    const tokens = [...banner.matchAll(/client \d+: Authorization: Bearer (sbx_[0-9a-f]+)/g)].map((m) => m[1]!);
    const accounts = [...banner.matchAll(/Account=(\d+)\s+DocumentNumber=(\d{11})/g)].map((m) => ({ account: m[1]!, cpf: m[2]! }));
    expect(tokens).toHaveLength(2);
    expect(accounts).toHaveLength(2);
    const [token] = tokens;
    const [{ account, cpf }] = accounts as [{ account: string; cpf: string }];
    const headers = { authorization: `Bearer ${token}`, 'user-agent': 'test/1', 'content-type': 'application/json' };

    const page = await fetch(`${sandbox.url}/v2/api/pix/keys/list-keys?limit=10`, { headers });
    expect(page.status).toBe(200);
    expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(3);
    const update = `${sandbox.url}/v2/api/baas-onboarding/account/natural-person?Account=${account}&DocumentNumber=${cpf}`;
    expect((await fetch(update, { method: 'PUT', headers, body: '{"email":"someone@example.com"}' })).status).toBe(200);
    const bad = await fetch(update, { method: 'PUT', headers, body: JSON.stringify({ email: 'not-an-email', address: { state: 'XX' } }) });
    expect(bad.status).toBe(422);
    // Another client's customer: the sandbox knows whose account is whose.
    const foreign = accounts[1]!;
    const other = `${sandbox.url}/v2/api/baas-onboarding/account/natural-person?Account=${foreign.account}&DocumentNumber=${foreign.cpf}`;
    expect((await fetch(other, { method: 'PUT', headers, body: '{"email":"x@example.com"}' })).status).toBe(403);

    expect(await eventually(() => /natural-person 403/.test(sandbox.output()), 5_000)).toBe(true);
    const log = sandbox.output().slice(banner.length);
    expect(log).toMatch(/^GET \/v2\/api\/pix\/keys\/list-keys 200 \(\d+ ms\)$/m);
    expect(log).toMatch(/^PUT \/v2\/api\/baas-onboarding\/account\/natural-person 200 \(\d+ ms\)$/m);
    expect(log).toMatch(/^PUT \/v2\/api\/baas-onboarding\/account\/natural-person 422 fields: \/email, .*\/address\/state \(\d+ ms\)$/m);
    for (const secret of [...tokens, ...accounts.map((a) => a.cpf)]) expect(log).not.toContain(secret);
    process.kill(sandbox.pid, 'SIGTERM');
    await expectNothingLeft(sandbox.tree, sandbox.port);
  }, 90_000);

  it('the same seed gives the same tokens and accounts; bad counts are usage errors that name the option', async () => {
    const first = await startSandboxCommand('--seed', 'again', '--clients', '1');
    const banner = (text: string) => text.slice(text.indexOf('Seed '), text.indexOf('  try:'));
    const once = banner(first.output());
    process.kill(first.pid, 'SIGINT');
    await expectNothingLeft(first.tree, first.port);
    const second = await startSandboxCommand('--seed', 'again', '--clients', '1');
    expect(banner(second.output())).toBe(once);
    expect(once).toMatch(/Bearer sbx_/);
    process.kill(second.pid, 'SIGINT');
    await expectNothingLeft(second.tree, second.port);

    const bad = startUntil('npm', ['run', '--silent', 'sandbox', '--', '--keys', '0'], /never/, { cwd: repoRoot, timeoutMs: 60_000 });
    await expect(bad.ready).rejects.toThrow(/exited \(2\)[\s\S]*--keys must be a whole number from 1 to 100000, got "0"/);
  }, 120_000);

  for (const signal of ['SIGINT', 'SIGHUP', 'SIGKILL'] as const) {
    it(`stops with its parent (npm) on ${signal}: no process left, the port free`, async () => {
      const sandbox = await startSandboxCommand('--seed', signal);
      expect(sandbox.tree.length, 'npm and node').toBeGreaterThanOrEqual(2);
      process.kill(sandbox.pid, signal);
      await expectNothingLeft(sandbox.tree, sandbox.port);
    }, 60_000);
  }
});
