// The docs page goes through the command line's one file layer (src/files.ts): `docs --out DIR` replaces
// only a page it wrote, and refuses any other index.html before rendering, leaving it as it was.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import { capture } from './in-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docs-page-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('refuses an index.html it did not write, before rendering, and leaves it as it was', async () => {
  const out = join(dir, 'theirs');
  await mkdir(out);
  await writeFile(join(out, 'index.html'), '<p>my own page</p>\n');
  const io = capture();
  expect(await main(['docs', '--out', out], COMMANDS, io)).toBe(2);
  expect(io.stderr.at(-1)).toMatch(/--out .*index\.html.* not a page this command wrote/);
  expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('<p>my own page</p>\n');
});

it('writes the page readable by all (a web server serves it), and replaces its own page', async () => {
  const out = join(dir, 'ours');
  await mkdir(out);
  // A page of an earlier run (how each of its pages begins, src/cli/docs-page.ts), 0600: one rendering
  // (a second of Redocly's CPU) replaces it, as a second run of the command would.
  const page = join(out, 'index.html');
  const earlier = '<!DOCTYPE html>\n<!-- baas-pix-contract docs -->\n<p>an earlier page</p>\n';
  await writeFile(page, earlier, { mode: 0o600 });
  expect(await main(['docs', '--out', out], COMMANDS, capture())).toBe(0);
  const written = await readFile(page, 'utf8');
  expect(written.startsWith('<!DOCTYPE html>\n')).toBe(true);
  expect(written).not.toBe(earlier);
  expect(written).toMatch(/<html/i);
  expect((await stat(page)).mode & 0o777).toBe(0o644);
});
