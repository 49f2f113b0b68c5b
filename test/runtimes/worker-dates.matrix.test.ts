// The root entry in a Worker whatever its compatibility date and flags: a Worker importing only
// `baas-pix-contract` (root-entry-worker/worker.mjs), installed from the packed tarball and bundled as
// wrangler bundles one, starts on workerd at compatibility date 2025-06-01 without nodejs_compat and
// with it, and at today's fixed date, and calls a sandbox served over HTTP by this process with every
// answer checked against the contract. (0.2 failed to start there: `No such module "node:fs"`, from the
// response validators' chunk, hoisted to the top of the Worker by the bundler.)
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { run } from '../../scripts/lib/run.mjs';
import { createSandbox } from '../../src/sandbox/index.js';
import { sharedPack } from '../package/pack.js';
import { runtimeBinary } from './binaries.js';
import { serveWorkerd } from './processes.js';
import { bundleWorker, COMPATIBILITY_DATE, writeWorkerdConfig } from './worker-bundle.js';

let project: string | undefined;
let bundle = '';

beforeAll(async () => {
  // workerd, a tool of the tool cache, is installed here on first need, under the hook's ceiling.
  const [packed, dir] = await Promise.all([
    sharedPack(),
    mkdtemp(join(tmpdir(), 'baas-root-worker-')),
    runtimeBinary('workerd'),
  ]);
  project = dir;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'root-entry-worker', private: true, type: 'module' }),
  );
  // What a consumer's `npm install` fetches: the tarball and openapi-fetch, no optional peer.
  await run(
    'npm',
    ['install', packed.tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'],
    { cwd: dir },
  );
  await cp(join(repoRoot, 'test/runtimes/root-entry-worker'), dir, { recursive: true });
  await mkdir(join(dir, 'out'));
  await bundleWorker(join(dir, 'worker.mjs'), join(dir, 'out/worker.js'));
  bundle = await readFile(join(dir, 'out/worker.js'), 'utf8');
}, 300_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('a Worker importing the root entry, from the packed tarball', () => {
  it('imports no Node.js built-in module once bundled', () => {
    expect(bundle.match(/(from|import\() ?["']node:[a-z_/]+["']/g) ?? []).toEqual([]);
    expect(bundle).toContain('createBaasClient');
  });

  it.each([
    { date: '2025-06-01', flags: [] },
    { date: '2025-06-01', flags: ['nodejs_compat'] },
    { date: COMPATIBILITY_DATE, flags: [] },
  ])(
    'starts and calls a sandbox, answers checked, at $date with flags $flags',
    async ({ date, flags }) => {
      const name = `root-${date}-${flags.join('-') || 'none'}`;
      const config = await writeWorkerdConfig(project!, name, 'out/worker.js', date, flags);
      const workerd = await serveWorkerd(await runtimeBinary('workerd'), config, project!);
      const sandbox = createSandbox({ seed: 'root-entry-worker', accountsPerClient: 2, keysPerAccount: 3 });
      const server = await sandbox.listen();
      try {
        const response = await fetch(workerd.url, {
          method: 'POST',
          body: JSON.stringify({ baseUrl: server.url, token: sandbox.clients[0]!.token }),
        });
        const body = (await response.json()) as { failed?: string };
        expect(body.failed, `the Worker failed; workerd said:\n${workerd.output()}`).toBeUndefined();
        expect(body).toEqual({ keys: 3, writtenCpf: true });
      } finally {
        await server.stop();
        await workerd.stop();
      }
    },
    120_000,
  );
});
