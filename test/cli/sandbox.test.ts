// The command line's sandbox in process: its size limits, --rate-limit and --faults, the banner, and a
// port in use. Run as a user runs it, `npm run sandbox`: sandbox-npm.matrix.test.ts (its tokens and
// accounts that work, state, the request log) and signals.matrix.test.ts (nothing left behind when npm
// gets SIGINT, SIGTERM or SIGHUP, or is killed outright).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import { BANNER_ACCOUNTS, LARGEST_RSS, sandboxBanner } from '../../src/cli/sandbox.js';
import { OPTION_FLAGS, SANDBOX_FLAGS, sandboxSettings } from '../../src/cli/sandbox-flags.js';
import { isBaasOptionError } from '../../src/option-rules.js';
import { sandbox as sandboxCommand } from '../../src/cli/sandbox.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { createServer, type Server } from 'node:net';
import { STOP_SIGNALS, addedListeners, capture, sendStop, signalListeners, until } from './in-process.js';

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
    expect(huge.stderr.at(-1)).toMatch(/^baas-pix-contract sandbox: /);
    expect(huge.stderr.at(-1)).toContain('--clients × --accounts');
    expect(huge.stderr.at(-1)).toMatch(/100,000: the counts given make more$/);
    expect(huge.stderr[1]).toContain('--help');
    expect(huge.built).toBe(0);
    const keys = await run('--clients', '1', '--accounts', '3', '--keys', '100000');
    expect(keys.code).toBe(2);
    expect(keys.stderr.at(-1)).toContain('--accounts × --keys');
    expect(keys.stderr.at(-1)).toMatch(/250,000: the counts given make more$/);
    expect(keys.built).toBe(0);
  });

  it('refuses a --token-ttl-seconds that is not a whole number of seconds from 1 to 86,400, building nothing', async () => {
    for (const ttl of ['0', '86401', '1.5', '-5', 'abc', '']) {
      const bad = await run(`--token-ttl-seconds=${ttl}`);
      expect(bad.code, ttl).toBe(2);
      expect(bad.stderr.at(-1)!.startsWith(`baas-pix-contract sandbox: --token-ttl-seconds `)).toBe(true);
      expect(bad.stderr.at(-1)!.endsWith(`86,400, got "${ttl}"`)).toBe(true);
      expect(bad.built).toBe(0);
    }
  });

  it('the memory of the largest sandbox: one number in --help and the README', async () => {
    const io = capture();
    await main(['sandbox', '--help'], COMMANDS, io);
    expect(io.stdout.join('\n')).toContain(`${LARGEST_RSS} of RSS`);
    expect(await readFile(join(repoRoot, 'README.md'), 'utf8')).toContain(`${LARGEST_RSS} of RSS`);
    expect(LARGEST_RSS).toMatch(/^\d+ MB$/);
  });

  it('states the defaults and the limits in --help', async () => {
    const io = capture();
    expect(await main(['sandbox', '--help'], COMMANDS, io)).toBe(0);
    const help = io.stdout.join('\n');
    expect(help).toMatch(/--clients N .*default 2,.*1,000/);
    expect(help).toMatch(/--accounts N .*default 2,.*100,000/);
    expect(help).toMatch(/--keys N .*default 5.*0 to 100,000/);
    expect(help).toMatch(/100,000 accounts .*\n.*250,000 keys/);
    expect(help).toMatch(/--rate-limit N .*default none/);
    expect(help).toMatch(/--faults LIST .*default none/);
    expect(help).toContain('STATUS:SHARE[:retry-after-seconds=N]');
    expect(help).toMatch(/retry-after-seconds \(0 to 86,400, default 30\)/);
    expect(help).toMatch(/--token-ttl-seconds N .*default 300,\n.*86,400/);
  });
});

describe('--rate-limit and --faults (in process)', () => {
  const run = async (...args: string[]) => {
    built.sizes = [];
    const io = capture();
    const code = await main(['sandbox', '--port', '0', ...args], COMMANDS, io);
    return { code, stderr: io.stderr, built: built.sizes.length };
  };

  it('are read into createSandbox options: none by default, a limit per second, faults in the order given', () => {
    expect(sandboxSettings({})).toMatchObject({ rateLimit: undefined, faults: [] });
    expect(sandboxSettings({ 'rate-limit': '50' }).rateLimit).toBe(50);
    expect(sandboxSettings({ faults: '503:0.05' }).faults).toEqual([{ operation: '*', status: 503, share: 0.05 }]);
    expect(
      sandboxSettings({ faults: '503:.05:retry-after-seconds=0,429:1:retry-after-seconds=7,500:0.5' }).faults,
    ).toEqual([
      { operation: '*', status: 503, share: 0.05, retryAfterSeconds: 0 },
      { operation: '*', status: 429, share: 1, retryAfterSeconds: 7 },
      { operation: '*', status: 500, share: 0.5 },
    ]);
    expect(sandboxSettings({ accounts: '100000', keys: '0', clients: '1' })).toMatchObject({
      accountsPerClient: 100_000,
      keysPerAccount: 0,
    });
  });

  it('refuse a bad value as a usage error naming the flag and the value, building nothing', async () => {
    const cases: [string, string, RegExp][] = [
      ['--rate-limit', '0', /1 to 1,000,000, got "0"$/],
      ['--rate-limit', '-3', /got "-3"$/],
      ['--rate-limit', '1.5', /got "1.5"$/],
      ['--rate-limit', 'many', /got "many"$/],
      ['--rate-limit', '1000001', /got "1000001"$/],
      ['--rate-limit', '', /got ""$/],
      ['--faults', '503', /STATUS:SHARE\[:retry-after-seconds=N\].*got "503"$/],
      ['--faults', '503:', /got "503:"$/],
      ['--faults', '503:0.05:retry-after-seconds=-1', /got "503:0.05:retry-after-seconds=-1"$/],
      ['--faults', '503:0.05,', /got ""$/],
      ['--faults', '503:0.1.2', /got "503:0.1.2"$/],
      ['--faults', '503:0', /"503:0": the share .*greater than 0 and at most 1/],
      ['--faults', '503:1.5', /"503:1.5": the share/],
      ['--faults', '700:0.1', /"700:0.1": the status .*100 to 599$/],
      [
        '--faults',
        '500:0.1:retry-after-seconds=1',
        /"500:0.1:retry-after-seconds=1": retry-after-seconds .*429 or 503$/,
      ],
      ['--faults', '503:0.1:retry-after-seconds=86401', /retry-after-seconds .*0 to 86,400$/],
    ];
    for (const [flag, value, rule] of cases) {
      const bad = await run(`${flag}=${value}`);
      expect(bad.code, `${flag}=${value}`).toBe(2);
      expect(bad.stderr.at(-1)!.startsWith(`baas-pix-contract sandbox: ${flag} `), bad.stderr.at(-1)).toBe(true);
      expect(bad.stderr.at(-1)).toMatch(rule);
      expect(bad.built).toBe(0);
    }
  });
});

describe("the sandbox's refusals said with the flags' words", () => {
  it('a fault the sandbox refuses is an options error whose field and rule are data', () => {
    let error: unknown;
    try {
      createSandbox({
        seed: 'fault-data',
        faults: [{ operation: '*', status: 500, share: 0.1, retryAfterSeconds: 1 }],
      });
    } catch (caught) {
      error = caught;
    }
    expect(isBaasOptionError(error)).toBe(true);
    expect(error).toMatchObject({
      where: 'createSandbox',
      option: 'faults[0].retryAfterSeconds',
      rule: 'needs a status of 429 or 503',
    });
  });

  it("one table from createSandbox's options to the flags, made from the flags' own declarations", () => {
    // Every flag that sets an option is the command's, and the table holds each exactly once.
    for (const [name, flag] of Object.entries(SANDBOX_FLAGS)) {
      expect(sandboxCommand.options).toHaveProperty([name], flag);
      expect(OPTION_FLAGS[flag.sets]).toBe(`--${name}`);
    }
    expect(Object.keys(OPTION_FLAGS).sort()).toEqual([
      'accountsPerClient',
      'clients',
      'faults',
      'keysPerAccount',
      'rateLimit',
      'seed',
      'tokenTtlSeconds',
    ]);
  });
});

describe('the banner', () => {
  it("gives the counts, the token URL with the tokens' lifetime, then client 1: its token, id and secret, the two curl lines, its first accounts", () => {
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
    const [first] = sandbox.clients;
    // Every line under the client it belongs to: the curl lines are client 1's.
    expect(lines.slice(5, 9)).toEqual([
      `client 1: Authorization: Bearer ${first!.token}`,
      `  client_id=${first!.clientId}  client_secret=${first!.clientSecret}`,
      `  token: curl -u '${first!.clientId}:${first!.clientSecret}' -d grant_type=client_credentials 'http://127.0.0.1:4020/oauth/token'`,
      `  try: curl -H 'Authorization: Bearer ${first!.token}' -H 'User-Agent: demo/1' 'http://127.0.0.1:4020/v2/api/pix/keys/list-keys?limit=2'`,
    ]);
    expect(lines.slice(9, 11)).toEqual(first!.accounts.map((a) => expect.stringContaining(`  Account=${a.account} `)));
    // The other clients: one line saying how to see them, none of their secrets.
    expect(lines.slice(11)).toEqual([
      'clients 2 to 3: --list prints their token, client_id, client_secret and accounts',
    ]);
    for (const other of sandbox.clients.slice(1)) expect(lines.join('\n')).not.toContain(other.token);
    const one = createSandbox({ seed: 'banner', accountsPerClient: 1, keysPerAccount: 1 });
    const oneBanner = sandboxBanner(one, 'http://h', { seed: 'banner', keysPerAccount: 1, tokenTtlSeconds: 300 });
    expect(oneBanner[1]).toBe('Seeded 1 client, 1 customer account (1 per client), 1 PIX key (1 per account).');
    expect(oneBanner.at(-1)).toMatch(/^ {2}Account=/);
  });

  it('with --list: every client, each with its token, id, secret and every account; the curl lines only under client 1', () => {
    const sandbox = createSandbox({
      seed: 'banner',
      clients: 3,
      accountsPerClient: BANNER_ACCOUNTS + 4,
      keysPerAccount: 0,
    });
    const lines = sandboxBanner(sandbox, 'http://h', {
      seed: 'banner',
      keysPerAccount: 0,
      tokenTtlSeconds: 300,
      list: true,
    });
    sandbox.clients.forEach((client, index) => {
      const at = lines.indexOf(`client ${index + 1}: Authorization: Bearer ${client.token}`);
      expect(at).toBeGreaterThan(2);
      expect(lines[at + 1]).toBe(`  client_id=${client.clientId}  client_secret=${client.clientSecret}`);
      const accounts =
        index === 0
          ? lines.slice(at + 4, at + 4 + client.accounts.length)
          : lines.slice(at + 2, at + 2 + client.accounts.length);
      expect(accounts).toEqual(client.accounts.map((a) => expect.stringContaining(`  Account=${a.account} `)));
    });
    expect(lines.filter((line) => line.includes('curl '))).toHaveLength(2);
    expect(lines.filter((line) => line.includes('… and'))).toEqual([]);
  });
});

describe('the banner: limits in force, and many accounts', () => {
  const info = { seed: 'banner', keysPerAccount: 0, tokenTtlSeconds: 300 };

  it('says the rate limit and the faults in force, or that there are none', () => {
    const sandbox = createSandbox({ seed: 'banner', accountsPerClient: 1, keysPerAccount: 0 });
    const none = sandboxBanner(sandbox, 'http://h', info);
    expect(none.slice(3, 5)).toEqual([
      'Rate limit: none (--rate-limit N sets one).',
      'Faults: none (--faults sets some).',
    ]);
    const set = sandboxBanner(sandbox, 'http://h', {
      ...info,
      ...sandboxSettings({ 'rate-limit': '50', faults: '503:0.07:retry-after-seconds=0,429:0.01,500:1' }),
    });
    expect(set[3]).toMatch(/^Rate limit: 50 requests per second per client; .*429 with Retry-After/);
    expect(set[4]).toBe(
      'Faults: 503 on 7 % of API answers (Retry-After 0 s), 429 on 1 % of API answers (Retry-After 30 s), 500 on 100 % of API answers.',
    );
    expect(sandboxBanner(sandbox, 'http://h', { ...info, rateLimit: 1 })[3]).toMatch(/^Rate limit: 1 request per/);
  });

  it(`shows the first ${BANNER_ACCOUNTS} accounts of client 1, then how many more there are (one, or several)`, () => {
    const sandbox = createSandbox({ seed: 'banner', accountsPerClient: BANNER_ACCOUNTS + 2, keysPerAccount: 0 });
    const lines = sandboxBanner(sandbox, 'http://h', info);
    const accounts = lines.filter((line) => line.startsWith('  Account='));
    expect(accounts).toHaveLength(BANNER_ACCOUNTS);
    expect(accounts.at(-1)).toContain(`Account=${sandbox.clients[0]!.accounts[BANNER_ACCOUNTS - 1]!.account} `);
    const more = lines[lines.indexOf(accounts.at(-1)!) + 1]!;
    expect(more).toMatch(/^ {2}… and 2 more accounts \(--list/);
    const oneMore = createSandbox({ seed: 'banner', accountsPerClient: BANNER_ACCOUNTS + 1, keysPerAccount: 0 });
    expect(sandboxBanner(oneMore, 'http://h', info)).toContain('  … and 1 more account (--list prints every one)');
  });

  it("--accounts 1000 (the batch guide's sandbox): under 40 lines before the line that says it listens", async () => {
    const before = signalListeners();
    const io = capture();
    const done = main(['sandbox', '--port', '0', '--accounts', '1000', '--keys', '0'], COMMANDS, io);
    await until(() => io.stdout.some((line) => line.startsWith('Sandbox listening on ')));
    const ready = io.stdout.findIndex((line) => line.startsWith('Sandbox listening on '));
    expect(ready).toBeGreaterThan(5);
    expect(ready).toBeLessThan(40);
    expect(io.stdout.slice(0, ready).join('\n')).toContain('… and 997 more accounts');
    expect(sendStop(before, 'SIGINT')).toBe(1);
    expect(await done).toBe(0);
  });
});

describe('a port in use (in process)', () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    blocker = undefined;
  });

  it('says so as its last line and suggests another port or --port 0, exit 1, nothing left listening', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const before = signalListeners();
    const io = capture();
    expect(await main(['sandbox', '--port', String(port), '--accounts', '1'], COMMANDS, io)).toBe(1);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(new RegExp(`^baas-pix-contract sandbox: port ${port} is in use on 127\\.0\\.0\\.1`));
    expect(io.stderr[0]).toContain('--port 0');
    expect(io.stdout).toEqual([]);
    for (const signal of STOP_SIGNALS) expect(addedListeners(before, signal), signal).toEqual([]);
  });
});

// `npm run sandbox` as a user starts it (npm, then the sources through tsx, for each case: its banner,
// state, request log, --rate-limit and --faults, the same seed twice): test/cli/sandbox-npm.matrix.test.ts;
// its stop on SIGINT, SIGHUP and SIGKILL of npm: test/cli/signals.matrix.test.ts.
