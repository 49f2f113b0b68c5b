// One consumer (consumer/consume.mjs), installed from the packed tarball, run on every runtime the
// package supports: Node 20, 22 and 24, Bun, Deno and Cloudflare's workerd (as a Worker bundled the
// way wrangler bundles one). Each run gets its own sandbox served over HTTP on 127.0.0.1 by this
// process, with one 503 armed for listPixKeys, and must: retry past it, update a customer, get a
// BaasValidationError before sending and a BaasApiError (404) from the server, fetch a token from the
// sandbox's POST /oauth/token with clientCredentials, and walk every key of its client with pixKeys.
// `tls` is created where the runtime can present a client certificate and refused at creation where
// it cannot (workerd, Bun). The runtimes' binaries come from their npm packages in the tool cache (binaries.ts).
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { run } from '../../scripts/lib/run.mjs';
import { createSandbox } from '../../src/sandbox/index.js';
import { NODE_MAJORS, nodeBinary } from '../package/node-versions.js';
import { sharedPack } from '../package/pack.js';
import { runtimeBinary } from './binaries.js';
import { runProgram, serveWorkerd, type RunningWorkerd } from './processes.js';
import { bundleWorker, writeWorkerdConfig } from './worker-bundle.js';

const ACCOUNTS = 3;
const KEYS_PER_ACCOUNT = 4;

let project: string | undefined;
let workerd: RunningWorkerd | undefined;

beforeAll(async () => {
  // The runtimes' tools are installed here, on first need, under the hook's ceiling rather than a test's.
  const [packed, dir] = await Promise.all([
    sharedPack(),
    mkdtemp(join(tmpdir(), 'baas-runtimes-')),
    ...(['bun', 'deno', 'workerd'] as const).map(runtimeBinary),
  ]);
  project = dir;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'runtime-consumer', private: true, type: 'module' }),
  );
  // What a consumer's `npm install` fetches: the tarball and openapi-fetch, no optional peer.
  await run(
    'npm',
    ['install', packed.tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'],
    { cwd: dir },
  );
  await cp(join(repoRoot, 'test/runtimes/consumer'), dir, { recursive: true });
  // The sandbox's Worker bundles Faker itself (an optional peer the consumer adds): linked, not downloaded.
  await mkdir(join(dir, 'node_modules/@faker-js'), { recursive: true });
  await symlink(join(repoRoot, 'node_modules/@faker-js/faker'), join(dir, 'node_modules/@faker-js/faker'), 'dir');
  await mkdir(join(dir, 'out'));
  await bundleWorker(join(dir, 'worker.mjs'), join(dir, 'out/consumer-worker.js'));
  const config = await writeWorkerdConfig(dir, 'consumer', 'out/consumer-worker.js');
  workerd = await serveWorkerd(await runtimeBinary('workerd'), config, dir);
}, 600_000);

afterAll(async () => {
  await workerd?.stop();
  if (project) await rm(project, { recursive: true, force: true });
});

interface Setup {
  baseUrl: string;
  token: string;
  clientId: string;
  clientSecret: string;
  account: string;
  documentNumber: string;
}

/** Runs the consumer against a fresh sandbox served over HTTP; returns what it printed and the sandbox's log. */
async function againstSandbox(consumer: (setup: Setup) => Promise<unknown>) {
  const sandbox = createSandbox({ seed: 'runtimes', accountsPerClient: ACCOUNTS, keysPerAccount: KEYS_PER_ACCOUNT });
  // Retry-After 0: the spec's example says 30 s, longer than the client waits.
  sandbox.inject({ operation: 'listPixKeys', status: 503, times: 1, headers: { 'retry-after': '0' } });
  const lines: string[] = [];
  const server = await sandbox.listen({ log: (line) => lines.push(line) });
  try {
    const [client] = sandbox.clients;
    const [account] = client!.accounts;
    const setup: Setup = {
      baseUrl: server.url,
      token: client!.token,
      clientId: client!.clientId,
      clientSecret: client!.clientSecret,
      account: account!.account,
      documentNumber: account!.documentNumber,
    };
    return { printed: await consumer(setup), lines };
  } finally {
    await server.stop();
  }
}

type TlsAtCreation = 'created' | { name: string; names: string };

/** What every runtime must see; only `tls` differs, by what the runtime can do. */
const expected = (tls: { client: TlsAtCreation; clientCredentials: TlsAtCreation }) => ({
  firstPage: { keys: 2, hasNext: true },
  updated: { version: '1.0.0', status: 'SUCCESS' },
  invalid: {
    name: 'BaasValidationError',
    kind: 'validation',
    isApiError: false,
    isValidationError: true,
    paths: ['DocumentNumber'],
  },
  notFound: { name: 'BaasApiError', kind: 'api', status: 404, isApiError: true, isValidationError: false },
  walk: { keys: ACCOUNTS * KEYS_PER_ACCOUNT, distinct: ACCOUNTS * KEYS_PER_ACCOUNT },
  tls,
});

const CREATED = { client: 'created', clientCredentials: 'created' } as const;
const REFUSED = {
  client: { name: 'TypeError', names: 'tls' },
  clientCredentials: { name: 'TypeError', names: 'clientCredentials.tls' },
};

/** The statuses the sandbox logged for requests starting with `start` (e.g. `GET /v2/…?limit=2 `). */
const statuses = (lines: string[], start: string) =>
  lines.filter((line) => line.startsWith(start)).map((line) => Number(/ → HTTP (\d+) /.exec(line)?.[1]));

function checkRun(outcome: Awaited<ReturnType<typeof againstSandbox>>, tls = expected(CREATED).tls): void {
  const printed = outcome.printed as { runtime: string; result: unknown };
  expect(printed.result).toEqual(expected(tls));
  // The retry, seen from the server: the 503 armed, then the same request again, answered.
  expect(statuses(outcome.lines, 'GET /v2/api/pix/keys/list-keys?limit=2 ')).toEqual([503, 200]);
  // One token from the token endpoint; the walk's pages (3 keys each, and the client's 12 keys) sent it.
  expect(statuses(outcome.lines, 'POST /oauth/token ')).toEqual([200]);
  expect(statuses(outcome.lines, 'GET /v2/api/pix/keys/list-keys?limit=3')).toEqual([200, 200, 200, 200]);
}

/** The consumer as a program: the setup as its argument, its last line parsed. */
const asProgram = (binary: string, args: string[], what: string) => async (setup: Setup) => {
  const stdout = await runProgram(binary, [...args, JSON.stringify(setup)], project!, what);
  return JSON.parse(stdout.trim().split('\n').pop()!) as unknown;
};

describe('the same consumer, from the packed tarball, against a sandbox over HTTP', () => {
  describe.each(NODE_MAJORS)('on Node %i', (major) => {
    it('both operations, a retry, a BaasValidationError and a BaasApiError, clientCredentials, the whole key walk', async () => {
      const node = await nodeBinary(major);
      const outcome = await againstSandbox(asProgram(node, ['main.mjs'], `The consumer on Node ${major}`));
      checkRun(outcome);
      expect((outcome.printed as { runtime: string }).runtime).toMatch(new RegExp(`^node ${major}\\.`));
    }, 360_000);
  });

  it("on Bun: the same, and `tls` refused at creation (Bun's own undici ignores the certificate)", async () => {
    const bun = await runtimeBinary('bun');
    const outcome = await againstSandbox(asProgram(bun, ['--no-install', 'main.mjs'], 'The consumer on Bun'));
    checkRun(outcome, REFUSED);
    expect((outcome.printed as { runtime: string }).runtime).toMatch(/^bun \d/);
  }, 120_000);

  it('on Deno (with network to 127.0.0.1 only): the same', async () => {
    const deno = await runtimeBinary('deno');
    const outcome = await againstSandbox(
      asProgram(deno, ['run', '--allow-net=127.0.0.1', 'main.mjs'], 'The consumer on Deno'),
    );
    checkRun(outcome);
    expect((outcome.printed as { runtime: string }).runtime).toMatch(/^deno \d/);
  }, 120_000);

  it('on workerd (a Worker bundled as wrangler does): the same, and `tls` refused at creation, naming the option', async () => {
    const outcome = await againstSandbox(async (setup) => {
      const response = await fetch(workerd!.url, { method: 'POST', body: JSON.stringify(setup) });
      const body = (await response.json()) as { failed?: string };
      expect(body.failed, `the Worker failed; workerd said:\n${workerd!.output()}`).toBeUndefined();
      return body;
    });
    checkRun(outcome, REFUSED);
  }, 120_000);
});

describe("the sandbox served by a Worker (its fetch handler as the Worker's), called from Node", () => {
  let served: RunningWorkerd | undefined;
  let bundle = '';
  // Node's own sandbox with the same options: the Worker's must answer byte for byte the same.
  const local = createSandbox({ seed: 'worker', accountsPerClient: 3, keysPerAccount: 4 });
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'user-agent': 'runtimes-test/1' });

  beforeAll(async () => {
    await bundleWorker(join(project!, 'sandbox-worker.mjs'), join(project!, 'out/sandbox-worker.js'));
    bundle = await readFile(join(project!, 'out/sandbox-worker.js'), 'utf8');
    // A date before Node.js APIs came to Workers (2024-09-23): the handler must need none of them.
    const config = await writeWorkerdConfig(project!, 'sandbox', 'out/sandbox-worker.js', '2024-01-01');
    served = await serveWorkerd(await runtimeBinary('workerd'), config, project!);
  }, 120_000);
  afterAll(() => served?.stop());

  it('imports no Node.js built-in module (the Worker is bundled with the package and Faker)', () => {
    expect(bundle.match(/(from|import\() ?["']node:[a-z_/]+["']/g) ?? []).toEqual([]);
    expect(bundle).toContain('createSandbox');
  });

  it('serves every key page by page, the same bytes as the sandbox in Node', async () => {
    const token = local.clients[0]!.token;
    let next: string | null = null;
    let pages = 0;
    let keys = 0;
    do {
      const path = `/v2/api/pix/keys/list-keys?limit=5${next ? `&cursor=${encodeURIComponent(next)}` : ''}`;
      const [remote, mine] = await Promise.all([
        fetch(served!.url + path, { headers: headers(token) }),
        local.fetch(`https://sandbox.baas.test${path}`, { headers: headers(token) }),
      ]);
      expect(remote.status, served!.output()).toBe(200);
      const text = await remote.text();
      expect(text).toBe(await mine.text());
      const page = JSON.parse(text) as { cursor: { next: string | null }; data: unknown[] };
      keys += page.data.length;
      pages += 1;
      next = page.cursor.next;
    } while (next !== null && pages < 10);
    expect({ pages, keys }).toEqual({ pages: 3, keys: 12 });
  });

  it('issues a token for client credentials (Basic), which its API then accepts; a wrong secret gets invalid_client', async () => {
    const { clientId, clientSecret } = local.clients[0]!;
    const token = (secret: string) =>
      fetch(`${served!.url}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${clientId}:${secret}`)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
    const issued = await token(clientSecret);
    expect(issued.status, served!.output()).toBe(200);
    const { access_token } = (await issued.json()) as { access_token: string };
    const page = await fetch(`${served!.url}/v2/api/pix/keys/list-keys?limit=1`, { headers: headers(access_token) });
    expect(page.status).toBe(200);
    const refused = await token(`${clientSecret}x`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('answers an unknown token with its 401 problem, and a broken update with a 422 naming the field', async () => {
    const unknown = await fetch(`${served!.url}/v2/api/pix/keys/list-keys`, { headers: headers('sbx_nope') });
    expect(unknown.status).toBe(401);
    const { account, documentNumber } = local.clients[0]!.accounts[0]!;
    const update = await fetch(
      `${served!.url}/v2/api/baas-onboarding/account/natural-person?Account=${account}&DocumentNumber=${documentNumber}`,
      {
        method: 'PUT',
        headers: { ...headers(local.clients[0]!.token), 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'not an e-mail' }),
      },
    );
    expect(update.status).toBe(422);
    const problem = (await update.json()) as { violations: { property: string }[] };
    expect(problem.violations.map((v) => v.property)).toEqual(['/email']);
  });
});
