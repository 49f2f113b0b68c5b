// The package as a consumer gets it: the tarball `npm run tarball` writes, packed once per run by the
// package tests' helper (test/package/pack.ts, shared with test/package/consumer.matrix.test.ts) and unpacked. Its size, its error classes' names in both
// module formats, the sandbox in both, and a package.json that installs without scripts. Its size is reported, not budgeted.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { run } from '../../scripts/lib/run.mjs';
import { sharedPack, type PackedTarball } from '../package/pack.js';

let packed: PackedTarball;
// The tarball unpacked under the repository (.artifacts/), so that its `require('openapi-fetch')` and
// the like resolve to the repository's node_modules as they would to a consumer's.
let unpacked: string;
let pkg: string;

beforeAll(async () => {
  packed = await sharedPack();
  await mkdir(join(repoRoot, '.artifacts'), { recursive: true });
  unpacked = await mkdtemp(join(repoRoot, '.artifacts', 'tarball-'));
  await run('tar', ['-xzf', packed.tarball, '-C', unpacked]);
  pkg = join(unpacked, 'package');
}, 300_000);

afterAll(async () => {
  if (unpacked) await rm(unpacked, { recursive: true, force: true });
});

describe('the tarball', () => {
  // Reported, not budgeted (issue 28): the code ships readable, with source maps, whatever that weighs.
  it('lists every file npm packed, and reports its unpacked size', async () => {
    const sizes: { path: string; bytes: number }[] = [];
    for (const path of await readdir(pkg, { recursive: true })) {
      const info = await stat(join(pkg, path));
      if (info.isFile()) sizes.push({ path, bytes: info.size });
    }
    // Every file npm listed is there, so the sum is npm's "unpacked size".
    expect(sizes.map((s) => s.path).sort()).toEqual(packed.files);
    const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
    console.log(`tarball: ${sizes.length} files, ${total} B unpacked, ${(await stat(packed.tarball)).size} B packed`);
    for (const { path, bytes } of sizes.sort((a, b) => b.bytes - a.bytes).slice(0, 8))
      console.log(`  ${bytes} B ${path}`);
    expect(total).toBeGreaterThan(0);
  });
});

// Each exported error class (BaasTokenError too, which clientCredentials rejects with) built as a consumer
// meets it, in a process of its own: `require` of the CommonJS build, `import` of the ESM one. The classes
// are read from the build's own exports (every function whose prototype is a BaasError), so a class added
// to the entry without a way to build it here fails the test instead of going unchecked.
const NAMES_SCRIPT = `
const m = LOAD;
const fail = () => Promise.resolve(new Response(JSON.stringify({ error: 'invalid_client' }), { status: 401, headers: { 'content-type': 'application/json' } }));
const context = { operation: 'listPixKeys', method: 'GET', url: 'https://api.test/v2/api/pix/keys', attempts: 1, secrets: m.Secrets.none };
(async () => {
  const tokenError = await m.clientCredentials({ tokenUrl: 'https://auth.test/token', clientId: 'id', clientSecret: 's3cret', fetch: fail })().catch((e) => e);
  const errors = {
    BaasApiError: new m.BaasApiError({ status: 422, problem: { title: 'Bad' } }, context),
    BaasValidationError: new m.BaasValidationError([], context),
    BaasTimeoutError: new m.BaasTimeoutError(100, context),
    BaasNetworkError: new m.BaasNetworkError('ECONNRESET', context),
    BaasResponseError: new m.BaasResponseError('not JSON', { status: 200 }, context),
    BaasAuthError: new m.BaasAuthError('no token', context),
    BaasTokenError: tokenError,
  };
  const exported = Object.keys(m).filter((name) => typeof m[name] === 'function' && m[name].prototype instanceof m.BaasError);
  const out = { classes: { BaasError: m.BaasError.name }, exported, errors: {} };
  for (const name of exported) out.classes[name] = m[name].name;
  for (const [expected, error] of Object.entries(errors)) {
    out.errors[expected] = { name: error.name, string: String(error), stack: error.stack.split('\\n')[0], constructor: error.constructor.name, baas: error instanceof m.BaasError };
  }
  console.log(JSON.stringify(out));
})();
`;

describe.each([
  { format: 'CommonJS', file: 'names.cjs', load: `require(${JSON.stringify('./dist/index.cjs')})` },
  { format: 'ESM', file: 'names.mjs', load: `await import(${JSON.stringify('./dist/index.js')})` },
])('error classes keep their names in the $format build', ({ file, load }) => {
  it("every exported class, each error built from it: name, String(), the stack's first line", async () => {
    const script = join(pkg, file);
    // Top-level await is fine in the .mjs file; the rest runs the same in both.
    await writeFile(script, NAMES_SCRIPT.replace('LOAD', load));
    const out = JSON.parse(await run(process.execPath, [script], { cwd: pkg })) as {
      classes: Record<string, string>;
      exported: string[];
      errors: Record<string, { name: string; string: string; stack: string; constructor: string; baas: boolean }>;
    };
    // One error built from each class the entry exports, no more and no fewer.
    expect(Object.keys(out.errors).sort()).toEqual([...out.exported].sort());
    expect(out.classes).toEqual(Object.fromEntries(['BaasError', ...out.exported].map((n) => [n, n])));
    for (const name of out.exported) {
      const error = out.errors[name]!;
      expect(error.name, name).toBe(name);
      expect(error.constructor, name).toBe(name);
      expect(error.string.startsWith(`${name}: `), `${name}: ${error.string}`).toBe(true);
      expect(error.stack.startsWith(`${name}: `), `${name}: ${error.stack}`).toBe(true);
      expect(error.baas, name).toBe(true);
    }
    // The operation comes right after the name, as the issue's `BaasApiError: listPixKeys: HTTP 422 …`.
    expect(out.errors.BaasApiError!.string.startsWith('BaasApiError: listPixKeys: HTTP 422')).toBe(true);
  });
});

// The sandbox as each build ships it, in a process of its own: a page, the next one by its cursor
// (signed with the bundled HMAC), a documented example (from the spec part the build carries or, in
// CommonJS, reads), and a token for client credentials (the secret checked by the bundled SHA-256).
const SANDBOX_SCRIPT = `
const m = LOAD;
(async () => {
  const sandbox = m.createSandbox({ keysPerAccount: 7 });
  const [client] = sandbox.clients;
  const headers = { authorization: 'Bearer ' + client.token, 'user-agent': 'size-test' };
  const base = 'https://sandbox.baas.test/v2/api/pix/keys/list-keys';
  const first = await (await sandbox.fetch(base + '?limit=3', { headers })).json();
  const next = await sandbox.fetch(base + '?limit=3&cursor=' + first.cursor.next, { headers });
  const example = await (await sandbox.fetch(base, { headers: { ...headers, prefer: 'example=FirstPage' } })).json();
  const basic = 'Basic ' + btoa(client.clientId + ':' + client.clientSecret);
  const token = await sandbox.fetch('https://sandbox.baas.test/oauth/token', {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  console.log(JSON.stringify({ first, next: next.status, example, token: token.status }));
})();
`;

describe('the sandbox in both builds', () => {
  it('answers the same: pages and cursors, a documented example, a token for client credentials', async () => {
    const outputs: string[] = [];
    for (const [file, load] of [
      ['sandbox.cjs', `require(${JSON.stringify('./dist/sandbox/index.cjs')})`],
      ['sandbox.mjs', `await import(${JSON.stringify('./dist/sandbox/index.js')})`],
    ] as const) {
      const script = join(pkg, file);
      await writeFile(script, SANDBOX_SCRIPT.replace('LOAD', load));
      outputs.push(await run(process.execPath, [script], { cwd: pkg }));
    }
    expect(outputs[1]).toBe(outputs[0]);
    const out = JSON.parse(outputs[0]!) as {
      first: { cursor: { next: string | null }; data: unknown[] };
      next: number;
      example: unknown;
      token: number;
    };
    expect(out.first.data).toHaveLength(3);
    expect(out.first.cursor.next).toEqual(expect.any(String));
    expect(out.next).toBe(200);
    const spec = JSON.parse(await readFile(join(pkg, 'dist', 'generated', 'openapi.json'), 'utf8')) as {
      components: { examples: Record<string, { value: unknown }> };
    };
    expect(out.example).toEqual(spec.components.examples.FirstPage!.value);
    expect(out.token).toBe(200);
  });
});

describe('the shipped package.json', () => {
  it('has no scripts: nothing for npm to run, or list as an install script, when the tarball is installed', () => {
    expect(packed.manifest).not.toHaveProperty('scripts');
    expect(packed.manifest).not.toHaveProperty('allowScripts');
    // What a consumer relies on is still there.
    expect(packed.manifest).toHaveProperty('exports');
    expect(packed.manifest).toHaveProperty('bin');
  });

  it('installs without an install-script warning', async () => {
    const project = await mkdtemp(join(unpacked, 'consumer-'));
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    const output = await run(
      'npm',
      ['install', packed.tarball, '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'],
      { cwd: project },
    );
    expect(output).not.toMatch(/install-scripts|allowScripts|prepare/);
  }, 120_000);

  it('a plain `npm pack` in the repository stops and names `npm run tarball`, which packs the staged copy', async () => {
    const error = await run('npm', ['pack', '--dry-run'], { cwd: repoRoot }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toContain('npm run tarball');
  }, 60_000);
});
