// `npm run sandbox` (the command line's sandbox) as a user runs it: it prints the synthetic tokens
// and accounts to use, serves them with state, logs one line per request (never a token or a CPF;
// the fields of a 422 named), and when its parent (npm) gets SIGINT, SIGTERM or SIGHUP, or is killed
// outright, nothing is left behind: no process of the tree, and the port is free for the next start.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import { sandboxBanner } from '../../src/cli/sandbox.js';
import { createSandbox } from '../../src/sandbox/index.js';
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
  const run = startUntil(
    'npm',
    ['run', '--silent', 'sandbox', '--', '--port', String(port), ...args],
    /try: curl .*\n/,
    { cwd: repoRoot },
  );
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
    expect(huge.stderr[0]).toMatch(/^baas-pix-contract sandbox: /);
    expect(huge.stderr[0]).toContain('--clients × --accounts');
    expect(huge.stderr[0]).toMatch(/10,000, got 1,000,000$/);
    expect(huge.stderr[1]).toContain('--help');
    expect(huge.built).toBe(0);
    const keys = await run('--clients', '1', '--accounts', '3', '--keys', '100000');
    expect(keys.code).toBe(2);
    expect(keys.stderr[0]).toContain('--accounts × --keys');
    expect(keys.stderr[0]).toMatch(/250,000, got 300,000$/);
    expect(keys.built).toBe(0);
  });

  it('refuses a --token-ttl that is not a whole number of seconds from 1 to 86,400, building nothing', async () => {
    for (const ttl of ['0', '86401', '1.5', '-5', 'abc', '']) {
      const bad = await run(`--token-ttl=${ttl}`);
      expect(bad.code, ttl).toBe(2);
      expect(bad.stderr[0]!.startsWith(`baas-pix-contract sandbox: --token-ttl `)).toBe(true);
      expect(bad.stderr[0]!.endsWith(`86,400, got "${ttl}"`)).toBe(true);
      expect(bad.built).toBe(0);
    }
  });

  it('states the defaults and the limits in --help', async () => {
    const io = capture();
    expect(await main(['sandbox', '--help'], COMMANDS, io)).toBe(0);
    const help = io.stdout.join('\n');
    expect(help).toMatch(/--clients N .*default 2,.*1,000/);
    expect(help).toMatch(/--accounts N .*default 2,.*1,000/);
    expect(help).toMatch(/--keys N .*default 5.*100,000/);
    expect(help).toMatch(/10,000 accounts .*250,000 keys/);
    expect(help).toMatch(/--token-ttl SECONDS\n.*default 300,.*86,400/);
  });
});

describe('the banner', () => {
  it("gives the counts, the token URL with the tokens' lifetime, and each client's id and secret beside its token", () => {
    const sandbox = createSandbox({
      seed: 'banner',
      clients: 3,
      accountsPerClient: 2,
      keysPerAccount: 7,
      tokenTtlSeconds: 90,
    });
    const lines = sandboxBanner(sandbox, 'http://127.0.0.1:4020', {
      seed: 'banner',
      keysPerAccount: 7,
      tokenTtlSeconds: 90,
    });
    expect(lines[1]).toBe('Seeded 3 clients, 6 customer accounts (2 per client), 42 PIX keys (7 per account).');
    expect(lines[2]).toContain('tokens live 90 s');
    expect(lines[2]!.endsWith('http://127.0.0.1:4020/oauth/token')).toBe(true);
    sandbox.clients.forEach((client, index) => {
      const at = lines.indexOf(`client ${index + 1}: Authorization: Bearer ${client.token}`);
      expect(at).toBeGreaterThan(2);
      expect(lines[at + 1]).toBe(`  client_id=${client.clientId}  client_secret=${client.clientSecret}`);
    });
    // The last line is the list call (tests wait for it); the token call comes just before it.
    expect(lines.at(-1)).toMatch(/^ {2}try: curl /);
    expect(lines.at(-2)).toBe(
      `  token: curl -u '${sandbox.clients[0]!.clientId}:${sandbox.clients[0]!.clientSecret}' -d grant_type=client_credentials 'http://127.0.0.1:4020/oauth/token'`,
    );
    const one = createSandbox({ seed: 'banner', accountsPerClient: 1, keysPerAccount: 1 });
    expect(sandboxBanner(one, 'http://h', { seed: 'banner', keysPerAccount: 1, tokenTtlSeconds: 300 })[1]).toBe(
      'Seeded 1 client, 1 customer account (1 per client), 1 PIX key (1 per account).',
    );
  });
});

describe('npm run sandbox', () => {
  it('prints tokens and accounts that work, keeps state, and logs each request without a token or a CPF', async () => {
    const sandbox = await startSandboxCommand('--seed', 'cli-test', '--clients', '2', '--accounts', '1', '--keys', '3');
    const banner = sandbox.output();
    expect(banner).toContain(`Sandbox listening on ${sandbox.url}`);
    const tokens = [...banner.matchAll(/client \d+: Authorization: Bearer (sbx_[0-9a-f]+)/g)].map((m) => m[1]!);
    const accounts = [...banner.matchAll(/Account=(\d+)\s+DocumentNumber=(\d{11})/g)].map((m) => ({
      account: m[1]!,
      cpf: m[2]!,
    }));
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
    const bad = await fetch(update, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ email: 'not-an-email', address: { state: 'XX' } }),
    });
    expect(bad.status).toBe(422);
    // Another client's customer: the sandbox knows whose account is whose.
    const foreign = accounts[1]!;
    const other = `${sandbox.url}/v2/api/baas-onboarding/account/natural-person?Account=${foreign.account}&DocumentNumber=${foreign.cpf}`;
    expect((await fetch(other, { method: 'PUT', headers, body: '{"email":"x@example.com"}' })).status).toBe(403);

    // Client credentials, as the banner gives them: the token URL, client 1's id and secret.
    const tokenUrl = /Token URL .*: (http:\/\/\S+\/oauth\/token)$/m.exec(banner)?.[1];
    expect(tokenUrl).toBe(`${sandbox.url}/oauth/token`);
    // The counts line (its words pinned above): clients, accounts, per client, keys, per account.
    expect(
      banner
        .split('\n')
        .find((line) => line.startsWith('Seeded '))
        ?.match(/\d[\d,]*(?= )/g),
    ).toEqual(['2', '2', '1', '6', '3']);
    const [, clientId, clientSecret] = /client_id=(sbx_client_[0-9a-f]+) {2}client_secret=(sbx_secret_[0-9a-f]+)/.exec(
      banner,
    )!;
    const issued = await fetch(tokenUrl!, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token: accessToken } = (await issued.json()) as { access_token: string };
    expect(
      (
        await fetch(`${sandbox.url}/v2/api/pix/keys/list-keys?limit=1`, {
          headers: { ...headers, authorization: `Bearer ${accessToken}` },
        })
      ).status,
    ).toBe(200);

    expect(await eventually(() => /natural-person 403/.test(sandbox.output()), 5_000)).toBe(true);
    const log = sandbox.output().slice(banner.length);
    // One line per request (its words are the request log's, pinned in request-log-edges.test.ts).
    expect(log).toMatch(/^GET \S+list-keys 200 /m);
    expect(log).toMatch(/^PUT \S+natural-person 200 /m);
    expect(log).toMatch(/^PUT \S+natural-person 422 .*email.*address.state/m);
    expect(log).toMatch(/^POST .oauth.token 200 /m);
    for (const secret of [
      ...tokens,
      ...accounts.map((a) => a.cpf),
      clientId!,
      clientSecret!,
      btoa(`${clientId}:${clientSecret}`),
      accessToken,
    ])
      expect(log).not.toContain(secret);
    process.kill(sandbox.pid, 'SIGTERM');
    await expectNothingLeft(sandbox.tree, sandbox.port);
  }, 90_000);

  it('the same seed gives the same tokens and accounts; bad counts are usage errors that name the option', async () => {
    const first = await startSandboxCommand('--seed', 'again', '--clients', '1');
    // The port differs from run to run: the rest is the same, client secrets included.
    const banner = (text: string) =>
      text.slice(text.indexOf('Seed '), text.indexOf('  try:')).replace(/127\.0\.0\.1:\d+/g, 'HOST');
    const once = banner(first.output());
    process.kill(first.pid, 'SIGINT');
    await expectNothingLeft(first.tree, first.port);
    const second = await startSandboxCommand('--seed', 'again', '--clients', '1');
    expect(banner(second.output())).toBe(once);
    expect(once).toMatch(/Bearer sbx_/);
    expect(once).toMatch(/client_secret=sbx_secret_/);
    process.kill(second.pid, 'SIGINT');
    await expectNothingLeft(second.tree, second.port);

    const bad = startUntil('npm', ['run', '--silent', 'sandbox', '--', '--keys', '0'], /never/, {
      cwd: repoRoot,
      timeoutMs: 60_000,
    });
    await expect(bad.ready).rejects.toThrow(/exited .2.[\s\S]*--keys .*got "0"/);
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
