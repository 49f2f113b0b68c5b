// An error nobody catches must be readable: Node prints the line of the throw site before the error,
// and a minified build made that line the whole file (a plain 401 printed 42,896 bytes in ESM and
// 95,679 in CommonJS before its one-line message). Here the client of a fresh build calls a closed
// port with no catch, as a newcomer's first script does, in both module formats.
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCode, scriptsFolder } from './built-code.js';
// freePort: a port on 127.0.0.1 that was free a moment ago and has nothing listening on it now.
import { freePort as closedPort } from '../../src/testing/mock.js';

/** The code as the build makes it, made once for the sources as they are (./built-code.ts). */
let built: { dir: string };
// Beside the build, not in it: the checks of the built files below read every file there.
let scripts: Awaited<ReturnType<typeof scriptsFolder>>;
beforeAll(async () => {
  built = { dir: await builtCode() };
  scripts = await scriptsFolder();
});
afterAll(() => scripts?.remove());

/** Runs `file` with Node; resolves with its exit code and everything it printed. */
function runNode(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const call = (port: number) =>
  `createBaasClient({ baseUrl: 'http://127.0.0.1:${port}', token: 'uncaught-token' }).listPixKeys();`;

describe.each([
  { format: 'ESM', file: 'uncaught.mjs', load: (dir: string) => `import { createBaasClient } from '${dir}/index.js';` },
  {
    format: 'CommonJS',
    file: 'uncaught.cjs',
    load: (dir: string) => `const { createBaasClient } = require('${dir}/index.cjs');`,
  },
])('an uncaught error from the $format build', ({ file, load }) => {
  it('prints under 4 kB, its name and message within the first lines, no token', async () => {
    const script = join(scripts.dir, file);
    await writeFile(script, `${load(built.dir)}\n${call(await closedPort())}\n`);
    const { code, output } = await runNode(script);
    expect(code).not.toBe(0);
    expect(Buffer.byteLength(output)).toBeLessThan(4096);
    const lines = output.split('\n');
    const messageLine = lines.findIndex((line) => line.startsWith('BaasNetworkError: listPixKeys'));
    expect(messageLine, output).toBeGreaterThanOrEqual(0);
    expect(messageLine, output).toBeLessThan(6);
    // The throw site's line is one line of code, not a file.
    expect(Math.max(...lines.map((line) => line.length)), output).toBeLessThan(240);
    expect(output).not.toContain('uncaught-token');
  });
});

describe('the built files', () => {
  it('are not minified and each has its source map', async () => {
    const files = (await readdir(built.dir, { recursive: true })).filter((f) => /\.c?js$/.test(f));
    expect(files.length).toBeGreaterThan(4);
    const maps = new Set((await readdir(built.dir, { recursive: true })).filter((f) => f.endsWith('.map')));
    expect(files.map((f) => `${f}.map`).filter((map) => !maps.has(map))).toEqual([]);
    for (const file of files) {
      const code = await readFile(join(built.dir, file), 'utf8');
      expect(code, file).toMatch(/\/\/# sourceMappingURL=\S+\.map\s*$/);

      // Minified code is a few lines of thousands of characters; code as written averages well under 100.
      const lines = code.split('\n').length;
      expect(code.length / lines, file).toBeLessThan(120);
    }
  });

  it('import Node built-in modules by their node: names', async () => {
    const bare = new Set(builtinModules.filter((name) => !name.startsWith('_')));
    const files = (await readdir(built.dir, { recursive: true })).filter((f) => /\.c?js$/.test(f));
    const found: string[] = [];
    let prefixed = 0;
    for (const file of files) {
      const code = await readFile(join(built.dir, file), 'utf8');
      for (const [, specifier] of code.matchAll(/(?:from\s*|import\s*\(\s*|require\(\s*)["']([^"']+)["']/g)) {
        if (specifier!.startsWith('node:')) prefixed += 1;
        else if (bare.has(specifier!)) found.push(`${file}: ${specifier}`);
      }
    }
    expect(found).toEqual([]);
    expect(prefixed).toBeGreaterThan(0);
  });
});
