// The subcommands run in process through `main`: mock (in front of the run's own Prism, so no Prism
// is started here), sandbox (the real sandbox), docs (the page build replaced, the rest real) and
// verify (its options and the environment it is given). Each server is stopped by the handler it
// registered for a stop signal, and nothing is left listening.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import { bundledSpecPath } from '../../src/testing/mock.js';
import { portIsFree } from './processes.js';
import { capture, sendStop, signalListeners, until, type Captured } from './in-process.js';

const mocks = vi.hoisted(() => ({
  startMock: vi.fn(),
  buildDocs: vi.fn(),
  // How the Redocly CLI's manifest is found: as installed, not at all, or without a `bin.redocly`.
  redocly: 'installed' as 'installed' | 'missing' | 'no bin',
}));
vi.mock('node:module', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:module')>();
  const createRequire = (from: string | URL) => {
    const real = original.createRequire(from);
    const require = ((id: string) =>
      mocks.redocly === 'no bin' && id.endsWith('cli/package.json')
        ? { bin: { other: 'x.js' } }
        : real(id)) as NodeJS.Require;
    return Object.assign(require, {
      resolve: (id: string) => {
        if (mocks.redocly === 'missing' && id.startsWith('@redocly/cli')) throw new Error(`Cannot find module '${id}'`);
        return real.resolve(id);
      },
    });
  };
  return { ...original, default: { ...original, createRequire }, createRequire };
});
vi.mock('../../src/testing/mock.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  startMock: mocks.startMock,
}));
vi.mock('../../src/cli/docs-page.js', () => ({ buildDocs: mocks.buildDocs }));

const HEADERS = { authorization: 'Bearer test', 'user-agent': 'demo/1' };

/** The line a server prints last, once it takes requests. */
const listening = (io: Captured) => io.stdout.some((line) => / listening on /.test(line));

/** Runs a server command until its banner is out; `stop` sends it SIGINT and resolves with its exit code. */
async function startServer(args: string[], ready: (io: Captured) => boolean) {
  const before = signalListeners();
  const io = capture();
  let code: number | undefined;
  const done = main(args, COMMANDS, io).then((c) => (code = c));
  await until(() => ready(io) || code !== undefined);
  expect(code, io.stderr.join('\n')).toBeUndefined();
  const url = io.stdout.map((line) => /listening on (\S+) \(Ctrl-C to stop\)$/.exec(line)?.[1]).find(Boolean)!;
  return {
    io,
    url,
    stop: async () => {
      sendStop(before, 'SIGINT');
      return done;
    },
  };
}

describe('mock', () => {
  let stopped = 0;
  beforeEach(() => {
    stopped = 0;
    mocks.startMock.mockReset().mockImplementation(async () => ({
      url: inject('mockUrl'),
      port: Number(new URL(inject('mockUrl')).port),
      stop: async () => {
        stopped += 1;
      },
    }));
  });

  it('starts Prism with the examples by default, prints a curl that works, logs it, and stops Prism with it', async () => {
    const server = await startServer(['mock', '--port', '0'], listening);
    expect(mocks.startMock.mock.calls).toEqual([[{ dynamic: false, errors: false }]]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // A curl with the headers the contract requires, then last where it listens.
    const [curl, where] = server.io.stdout;
    expect(where).toMatch(/^Mock /);
    expect(where).toContain(server.url);
    expect(curl).toMatch(/^ {2}try: curl /);
    for (const part of [
      "-H 'Authorization: Bearer test'",
      "-H 'User-Agent: demo/1'",
      `${server.url}/v2/api/pix/keys/list-keys`,
    ])
      expect(curl).toContain(part);
    const answer = await fetch(`${server.url}/v2/api/pix/keys/list-keys`, { headers: HEADERS });
    expect(answer.status).toBe(200);
    await until(() => server.io.stdout.length === 3);
    expect(server.io.stdout[2]).toMatch(/^GET \S+list-keys HTTP 200 /);
    expect(await server.stop()).toBe(0);
    expect(server.io.stderr).toEqual(['Mock: SIGINT, stopping']);
    expect(stopped).toBe(1);
    expect(await portIsFree(Number(new URL(server.url).port))).toBe(true);
  });

  it('passes --spec, --seed, --dynamic and --errors on to Prism', async () => {
    const server = await startServer(
      ['mock', '-p', '0', '--spec', 'other.yaml', '--seed', '42', '--dynamic', '--errors'],
      listening,
    );
    expect(mocks.startMock.mock.calls).toEqual([[{ spec: 'other.yaml', seed: '42', dynamic: true, errors: true }]]);
    expect(await server.stop()).toBe(0);
  });

  it('checks --port before it starts Prism', async () => {
    const io = capture();
    expect(await main(['mock', '--port', '-3'], COMMANDS, io)).toBe(2);
    expect(mocks.startMock).not.toHaveBeenCalled();
  });
});

describe('sandbox', () => {
  const banner = listening;

  it('prints the seeded clients and accounts (every one with --list) and a curl that works; 2 clients of 2 accounts of 5 keys by default', async () => {
    const server = await startServer(['sandbox', '--port', '0', '--list'], banner);
    const lines = server.io.stdout;
    // The banner's words are pinned once, in test/cli/sandbox.test.ts; here, what a user acts on.
    expect(lines.at(-1)).toContain(server.url);
    expect(lines.some((line) => line.includes(`${server.url}/oauth/token`))).toBe(true);
    const clientLines = lines.filter((line) => /^client \d+: Authorization: Bearer sbx_[0-9a-f]+$/.test(line));
    expect(clientLines).toHaveLength(2);
    expect(
      lines.filter((line) => /^ {2}client_id=sbx_client_[0-9a-f]+ {2}client_secret=sbx_secret_[0-9a-f]+$/.test(line)),
    ).toHaveLength(2);
    const accountLines = lines.filter((line) => line.startsWith('  Account='));
    expect(accountLines).toHaveLength(4);
    for (const line of accountLines)
      expect(line).toMatch(/^ {2}Account=\d+ {2}DocumentNumber=\d{11} {2}account_id=\S+$/);
    const first = /Bearer (sbx_[0-9a-f]+)/.exec(clientLines[0]!)![1]!;
    const second = /Bearer (sbx_[0-9a-f]+)/.exec(clientLines[1]!)![1]!;
    expect(second).not.toBe(first);
    const curl = lines.find((line) => line.startsWith('  try: curl'))!;
    // Under client 1, whose token it carries: before client 2's lines.
    expect(lines.indexOf(curl)).toBeLessThan(lines.indexOf(clientLines[1]!));
    expect(curl).toContain(`Bearer ${first}'`);
    expect(curl).toContain(`${server.url}/v2/api/pix/keys/list-keys?limit=2`);
    // The curl of the banner, as printed: the first client's first page.
    const page = await fetch(`${server.url}/v2/api/pix/keys/list-keys?limit=2`, {
      headers: { authorization: `Bearer ${first}`, 'user-agent': 'demo/1' },
    });
    expect(page.status).toBe(200);
    expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(2);
    // Every key of the first client: 2 accounts × 5 keys.
    const all = await fetch(`${server.url}/v2/api/pix/keys/list-keys?limit=100`, {
      headers: { authorization: `Bearer ${first}`, 'user-agent': 'demo/1' },
    });
    expect(((await all.json()) as { data: unknown[] }).data).toHaveLength(10);
    expect(await server.stop()).toBe(0);
    expect(server.io.stderr).toEqual(['Sandbox: SIGINT, stopping']);
    expect(await portIsFree(Number(new URL(server.url).port))).toBe(true);
  });

  it('--seed, --clients, --accounts and --keys shape the data; the same seed gives the same banner', async () => {
    const args = ['sandbox', '--port', '0', '--seed', 'again', '--clients', '1', '--accounts', '1', '--keys', '3'];
    const once = await startServer(args, banner);
    const text = (io: Captured) =>
      io.stdout
        .filter((line) => !line.includes('listening on'))
        .join('\n')
        .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'URL');
    const first = text(once.io);
    const token = /Bearer (sbx_[0-9a-f]+)/.exec(first)![1]!;
    const all = await fetch(`${once.url}/v2/api/pix/keys/list-keys?limit=100`, {
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'demo/1' },
    });
    expect(((await all.json()) as { data: unknown[] }).data).toHaveLength(3);
    expect(await once.stop()).toBe(0);
    // One client, one account: its token line, its credentials, its account.
    expect(first.split('\n').filter((line) => /^(client \d+:| {2}client_id=| {2}Account=)/.test(line))).toHaveLength(3);
    expect(first).toMatch(/^Seed "again": /);

    const twice = await startServer(args, banner);
    expect(text(twice.io)).toBe(first);
    expect(await twice.stop()).toBe(0);
  });

  it.each([
    ['--clients', '0', '1,000'],
    ['--clients', '1001', '1,000'],
    ['--accounts', '100001', '100,000'],
    ['--keys', '100001', '100,000'],
    ['--keys', '1.5', '100,000'],
    ['--accounts', '-1', '100,000'],
    ['--accounts', '2x', '100,000'],
    ['--keys', '-1', '100,000'],
    ['--keys', 'x2', '100,000'],
  ])('%s %s is a usage error naming the option, its range and the value given', async (flag, value, max) => {
    const io = capture();
    expect(await main(['sandbox', '--port', '0', `${flag}=${value}`], COMMANDS, io)).toBe(2);
    const message = io.stderr.at(-1)!;
    expect(message.startsWith(`baas-pix-contract sandbox: ${flag} `)).toBe(true);
    expect(message.endsWith(`${max}, got "${value}"`)).toBe(true);
  });

  it('takes each count up to its maximum (checked before a later option fails)', async () => {
    for (const [ok, then] of [
      [['--clients', '1000'], '--accounts'],
      [['--clients', '1', '--accounts', '100000'], '--keys'],
    ] as const) {
      const io = capture();
      expect(await main(['sandbox', '--port', '0', ...ok, `${then}=x`], COMMANDS, io)).toBe(2);
      expect(io.stderr.at(-1)!.startsWith(`baas-pix-contract sandbox: ${then} `)).toBe(true);
    }
  });
});

describe('docs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-docs-'));
    mocks.buildDocs.mockReset().mockImplementation(async (page: string) => writeFile(page, '<html></html>'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it.each(['--out', '-o'])(
    '%s DIR creates the folder and builds index.html from the packaged spec with the Redocly CLI installed',
    async (flag) => {
      const out = join(dir, 'a', 'b');
      const io = capture();
      expect(await main(['docs', flag, out], COMMANDS, io)).toBe(0);
      const page = join(out, 'index.html');
      expect(io.stdout).toEqual([`docs written to ${page}`]);
      expect(await readFile(page, 'utf8')).toBe('<html></html>');
      const redoclyManifest = createRequire(import.meta.url).resolve('@redocly/cli/package.json');
      const { bin } = JSON.parse(await readFile(redoclyManifest, 'utf8')) as { bin: Record<string, string> };
      expect(mocks.buildDocs.mock.calls).toEqual([
        [
          page,
          {
            specJson: bundledSpecPath.replace(/\.yaml$/, '.json'),
            redoclyCli: join(dirname(redoclyManifest), bin.redocly!),
          },
        ],
      ]);
      expect(mocks.buildDocs.mock.calls[0]![1].specJson).toMatch(/generated[\\/]openapi\.json$/);
    },
  );

  it('the Redocly CLI not installed: exits 2 saying how to install it, before making the folder', async () => {
    mocks.redocly = 'missing';
    try {
      const io = capture();
      expect(await main(['docs', '--out', join(dir, 'new')], COMMANDS, io)).toBe(2);
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).toMatch(/^baas-pix-contract docs: /);
      expect(io.stderr.at(-1)).toContain('`npm install --save-dev @redocly/cli@^2`');
      expect(mocks.buildDocs).not.toHaveBeenCalled();
      await expect(stat(join(dir, 'new'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      mocks.redocly = 'installed';
    }
  });

  it('a Redocly CLI whose manifest names no `redocly` bin is run from its bin/cli.js', async () => {
    mocks.redocly = 'no bin';
    try {
      expect(await main(['docs', '--out', dir], COMMANDS, capture())).toBe(0);
      const manifest = createRequire(import.meta.url).resolve('@redocly/cli/package.json');
      expect(mocks.buildDocs.mock.calls[0]![1].redoclyCli).toBe(join(dirname(manifest), 'bin/cli.js'));
    } finally {
      mocks.redocly = 'installed';
    }
  });

  it('a relative --out is taken from the current folder', async () => {
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(dir);
    try {
      const io = capture();
      expect(await main(['docs', '--out', 'site'], COMMANDS, io)).toBe(0);
      expect(io.stdout).toEqual([`docs written to ${resolve(dir, 'site', 'index.html')}`]);
    } finally {
      cwd.mockRestore();
    }
  });

  it('a failing build exits 1 with its message', async () => {
    mocks.buildDocs.mockRejectedValueOnce(new Error('redocly exited 1'));
    const io = capture();
    expect(await main(['docs', '--out', dir], COMMANDS, io)).toBe(1);
    expect(io.stderr).toEqual([expect.stringMatching(/^baas-pix-contract docs: .*exited 1$/)]);
  });
});

describe('verify', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('reads its secrets from the environment of the process', async () => {
    const args = [
      'verify',
      '--base-url',
      'http://127.0.0.1:9',
      '--token-url',
      'http://127.0.0.1:9/token',
      '--client-id',
      'id',
      '--auth-method',
      'neither',
    ];
    vi.stubEnv('BAAS_CLIENT_SECRET', '');
    let io = capture();
    expect(await main(args, COMMANDS, io)).toBe(2);
    expect(io.stderr.at(-1)).toMatch(/client secret.*missing: .*BAAS_CLIENT_SECRET/);
    vi.stubEnv('BAAS_CLIENT_SECRET', 'from-the-environment');
    io = capture();
    expect(await main(args, COMMANDS, io)).toBe(2);
    expect(io.stderr.at(-1)).toMatch(/--auth-method .*client_secret_basic or client_secret_post$/);
    expect(io.stderr.join('\n')).not.toContain('from-the-environment');
  });
});
