// The README's links lead somewhere, in the repository and in the package: every relative link of a
// tracked Markdown file names a file or folder that exists (and a heading of it, for `#fragment`), and
// the documents the package ships (package.json `files`, staged by scripts/lib/shipped-docs.mjs)
// link only to what the package holds, a link to a repository-only file made plain text.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import {
  documentEntries,
  isExternal,
  mapLinks,
  resolveLink,
  shippedMarkdown,
  shippedPaths,
  stageDocuments,
} from '../../scripts/lib/shipped-docs.mjs';

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens (github-slugger). */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown text's headings, repeats numbered as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line.trimStart())) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    let anchor = base;
    for (let n = 1; found.has(anchor); n++) anchor = `${base}-${n}`;
    found.add(anchor);
  }
  return found;
}

/** Each link of `file` (under `root`) that leads nowhere: a missing path, or a fragment no heading has. */
function brokenLinks(root: string, file: string, exists: (path: string) => boolean): string[] {
  const broken: string[] = [];
  const text = readFileSync(join(root, file), 'utf8');
  mapLinks(text, (_match: string, _text: string, target: string, line: number) => {
    if (isExternal(target)) {
      if (target.startsWith('#') && !anchors(text).has(target.slice(1))) broken.push(`${file}:${line} ${target}`);
      return undefined;
    }
    const { path, fragment } = resolveLink(file, target);
    if (!exists(path)) broken.push(`${file}:${line} ${target} (no ${path})`);
    else if (fragment && !anchors(readFileSync(join(root, path), 'utf8')).has(fragment))
      broken.push(`${file}:${line} ${target} (no heading #${fragment} in ${path})`);
    return undefined;
  });
  return broken;
}

describe('links in the repository', () => {
  it('every relative link of every tracked Markdown file names a path that exists, and a heading that exists', () => {
    const tracked = execFileSync('git', ['ls-files', '*.md'], { cwd: repoRoot, encoding: 'utf8' }).split('\n');
    const files = tracked.filter((file) => file && !file.startsWith('src/generated/'));
    expect(files.length).toBeGreaterThan(20);
    const broken = files.flatMap((file) => brokenLinks(repoRoot, file, (path) => existsSync(join(repoRoot, path))));
    expect(broken, 'fix each link, or the heading it names').toEqual([]);
  });
});

describe('links in the package', () => {
  let stage: string;
  let shipped: Set<string>;
  beforeAll(async () => {
    stage = await mkdtemp(join(tmpdir(), 'baas-documents-'));
    shipped = shippedPaths(await stageDocuments(stage, manifest));
  });
  afterAll(() => (stage ? rm(stage, { recursive: true, force: true }) : undefined));

  it('ships every guide, example and document the README links to', () => {
    for (const path of ['docs/guides/getting-started.md', 'docs/guias/troubleshooting.md', 'examples/first-call.ts'])
      expect(shipped.has(path), path).toBe(true);
    expect(shipped.has('openapi/openapi.yaml')).toBe(true);
    // Contributor material stays in the repository.
    for (const path of ['TESTING.md', 'CONTRIBUTING.md', 'src/redact.ts']) expect(shipped.has(path), path).toBe(false);
  });

  it('every link of every shipped Markdown file, the README included, leads to a file the package holds', () => {
    const markdown = [...shipped].filter((path) => path.endsWith('.md'));
    expect(markdown).toContain('README.md');
    const broken = markdown.flatMap((file) => brokenLinks(stage, file, (path) => shipped.has(path)));
    expect(broken).toEqual([]);
  });

  it('the staged README says where a repository-only document is instead of linking to it', async () => {
    const readme = await readFile(join(stage, 'README.md'), 'utf8');
    expect(readme).not.toContain('](CONTRIBUTING.md)');
    expect(readme).toContain('CONTRIBUTING.md (repository only)');
    expect(readme).toContain('](docs/guides/getting-started.md)');
  });

  it('lists in `files` only what exists, so `npm pack` never silently drops an entry', () => {
    for (const entry of documentEntries(manifest)) expect(existsSync(join(repoRoot, entry)), entry).toBe(true);
  });
});

describe('shippedMarkdown', () => {
  const shipped = new Set(['README.md', 'docs', 'docs/guides', 'docs/guides/a.md', 'docs/guias', 'docs/guias/a.md']);

  it('keeps a link to a shipped file and a URL, and turns a link to a repository-only file into text naming it', () => {
    const text =
      '[A](docs/guides/a.md#x), [site](https://example.test/T.md), [TESTING.md](TESTING.md), [the rules](src/redact.ts).';
    expect(shippedMarkdown(text, 'README.md', shipped)).toBe(
      '[A](docs/guides/a.md#x), [site](https://example.test/T.md), TESTING.md (repository only), the rules (`src/redact.ts`, repository only).',
    );
  });

  it('resolves a link from the document it is in, and says "só no repositório" in the Portuguese guides', () => {
    expect(shippedMarkdown('[a](a.md) [T](../../TESTING.md)', 'docs/guias/a.md', shipped)).toBe(
      '[a](a.md) T (`TESTING.md`, só no repositório)',
    );
  });

  it('leaves code blocks as they are', () => {
    const text = '```md\n[TESTING.md](TESTING.md)\n```\n';
    expect(shippedMarkdown(text, 'README.md', shipped)).toBe(text);
  });
});
