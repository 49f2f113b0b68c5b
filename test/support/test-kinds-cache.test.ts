// The projects of `npm test` are read from the files once per change of the tree
// (scripts/lib/test-kinds.mjs, testProjects): an unchanged tree is answered from the cache, and any
// change to a file the classification read makes it read the files again.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testProjects } from '../../scripts/lib/test-kinds.mjs';

const root = mkdtempSync(join(tmpdir(), 'test-kinds-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  mkdirSync(join(root, name, '..'), { recursive: true });
  writeFileSync(join(root, name), text);
};
const cacheFile = join(root, 'node_modules', '.cache', 'baas-pix-contract', 'test-kinds.json');

describe('the projects of npm test', () => {
  it('are read again when a file they were read from changes', () => {
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    write('src/server.ts', "import { createServer } from 'node:net';\nexport const make = () => createServer();\n");
    write('src/plain.ts', 'export const one = 1;\n');
    write('scripts/none.mjs', '\n');
    write('test/a.test.ts', "import { make } from '../src/server.js';\n");
    expect(testProjects(root)).toEqual({
      pure: [],
      process: ['test/a.test.ts'],
      isolated: [],
      prism: [],
      'prism-isolated': [],
    });
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).projects).toEqual({ 'test/a.test.ts': 'process' });
    // From the cache: the same, even with the classifier's reading of the test taken away.
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
    writeFileSync(cacheFile, JSON.stringify({ ...cache, projects: { 'test/a.test.ts': 'isolated' } }));
    expect(testProjects(root).isolated).toEqual(['test/a.test.ts']);

    // A file the test imports changes, its size and time with it: the cache no longer holds.
    write('src/server.ts', 'export const make = () => undefined;\n');
    utimesSync(join(root, 'src/server.ts'), new Date(), new Date(Date.now() + 5_000));
    expect(testProjects(root)).toEqual({
      pure: ['test/a.test.ts'],
      process: [],
      isolated: [],
      prism: [],
      'prism-isolated': [],
    });
    write('test/b.test.ts', "import '../src/plain.js';\n");
    expect(testProjects(root).pure).toEqual(['test/a.test.ts', 'test/b.test.ts']);
  });
});
