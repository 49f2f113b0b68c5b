// The readable-error promise as a consumer meets it: the packed tarball installed in a project of its
// own (no optional peer), and a first script with no catch, in ESM and CommonJS, for the root entry (a
// closed port) and the sandbox entry (its peer @faker-js/faker missing). Each prints under 4 kB, its
// error's name and message within the first lines. test/build/readable-errors.test.ts is the quick one.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.mjs';
import { sharedPack } from '../package/pack.js';
// freePort: a port on 127.0.0.1 that was free a moment ago and has nothing listening on it now.
import { freePort as closedPort } from '../../src/testing/mock.js';

let project: string | undefined;

beforeAll(async () => {
  const [packed, dir] = await Promise.all([sharedPack(), mkdtemp(join(tmpdir(), 'baas-uncaught-'))]);
  project = dir;
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'uncaught-consumer', private: true }));
  await run(
    'npm',
    ['install', packed.tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'],
    { cwd: dir },
  );
}, 300_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

function runNode(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: project!, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const CASES = [
  {
    what: 'the root entry, a closed port',
    name: 'BaasNetworkError',
    esm: (port: number) =>
      `import { createBaasClient } from 'baas-pix-contract';\nawait createBaasClient({ baseUrl: 'http://127.0.0.1:${port}', token: 'tok' }).listPixKeys();\n`,
    cjs: (port: number) =>
      `const { createBaasClient } = require('baas-pix-contract');\ncreateBaasClient({ baseUrl: 'http://127.0.0.1:${port}', token: 'tok' }).listPixKeys();\n`,
  },
  {
    what: 'the sandbox entry, without @faker-js/faker',
    name: 'Error',
    esm: () => `import { createSandbox } from 'baas-pix-contract/sandbox';\ncreateSandbox();\n`,
    cjs: () => `const { createSandbox } = require('baas-pix-contract/sandbox');\ncreateSandbox();\n`,
  },
];

describe.each(CASES)('an uncaught error from $what', ({ name, esm, cjs }) => {
  it.each([
    ['ESM', 'mjs', esm],
    ['CommonJS', 'cjs', cjs],
  ] as const)('in %s prints under 4 kB, the message within the first lines', async (_format, extension, source) => {
    const file = join(project!, `uncaught-${name}.${extension}`);
    await writeFile(file, source(await closedPort()));
    const { code, output } = await runNode(file);
    expect(code).not.toBe(0);
    expect(Buffer.byteLength(output), output).toBeLessThan(4096);
    const lines = output.split('\n');
    const at = lines.findIndex((line) => line.startsWith(`${name}: `));
    expect(at, output).toBeGreaterThanOrEqual(0);
    expect(at, output).toBeLessThan(6);
  });
});
