// The rule of test/guides/guide-blocks.ts over the README and every guide: each `sh`, `ts` or `js`
// block is one that test/guides/run-as-written.matrix.test.ts can run as written, or is marked
// `<!-- not-run: reason -->` with a reason; and the rule's reading of a shell line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GUIDES, blocksOf, commandsOf, isReason, RUNNABLE, whyNotRunnable } from './guide-blocks.js';

describe.each(GUIDES)('%s', (document) => {
  const blocks = blocksOf(document).filter((block) => RUNNABLE.has(block.lang));

  it('has only blocks the runner can run as written, or marked not-run with a reason', () => {
    const problems = blocks
      .map((block) => ({ at: `${document}:${block.line}`, why: whyNotRunnable(block) }))
      .filter(({ why }) => why);
    expect(problems).toEqual([]);
    for (const block of blocks.filter((b) => b.notRun))
      expect(isReason(block.notRun!), `${document}:${block.line}: "${block.notRun}" is no reason`).toBe(true);
  });
});

it('runs the install lines and the first call of the README and the guides a newcomer follows', () => {
  const run = (document: string) => blocksOf(document).filter((block) => RUNNABLE.has(block.lang) && !block.notRun);
  for (const document of [
    'README.md',
    'docs/guides/getting-started.md',
    'docs/guides/testing.md',
    'docs/guides/tracing.md',
    'docs/guides/batch.md',
  ])
    expect(
      run(document).some((block) => block.commands.some((c) => c.kind === 'install')),
      document,
    ).toBe(true);
  expect(run('README.md').flatMap((block) => block.commands.map((c) => c.kind))).toEqual(
    expect.arrayContaining(['install', 'sandbox', 'run']),
  );
});

describe('reading a shell block', () => {
  it('joins continued lines, takes off comments, keeps a # inside a word, reads NAME=value', () => {
    const [install, run] = commandsOf(
      'npm install "git+https://h/o/r.git#v1" \\\n  tsx   # a runner\n# shown output\nBAAS_TOKEN=sbx_… npx tsx a.ts\n',
    );
    expect(install).toMatchObject({ kind: 'install', argv: ['npm', 'install', 'git+https://h/o/r.git#v1', 'tsx'] });
    expect(install!.shows).toEqual(['shown output']);
    expect(run).toMatchObject({ kind: 'run', env: { BAAS_TOKEN: 'sbx_…' }, argv: ['npx', 'tsx', 'a.ts'] });
  });

  const dir = mkdtempSync(join(tmpdir(), 'guide-blocks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const doc = (text: string) => {
    writeFileSync(join(dir, 'doc.md'), text);
    return blocksOf('doc.md', dir);
  };

  it('finds what keeps a block from running: an unknown command, another host, a placeholder, a fragment', () => {
    const why = (text: string) => doc(text).map(whyNotRunnable);
    expect(why('```sh\ncurl http://127.0.0.1:1\n```\n')[0]).toMatch(/does not know/);
    expect(why('```sh\nnpx baas-pix-contract verify --base-url https://api.example\n```\n')[0]).toMatch(/cannot reach/);
    expect(why('```sh\nBAAS_TOKEN=… npx baas-pix-contract verify\n```\n')[0]).toMatch(/placeholder/);
    expect(why('```ts\nconst a = 1;\n```\n')[0]).toMatch(/fragment/);
    expect(why('```ts\n// a.ts\nconst a = 1;\n```\n```text\nanything\n```\n')).toEqual([undefined, undefined]);
    expect(why('<!-- not-run: needs a provider of yours -->\n```ts\nconst a = 1;\n```\n')).toEqual([undefined]);
  });

  it('reads a mark before an example marker, and an indented block', () => {
    const [marked, indented] = doc(
      '<!-- not-run: a worker for workerd only -->\n<!-- example: examples/x.ts -->\n```ts\nx\n```\n\n- item\n\n  ```ts\n  // b.ts\n  y\n  ```\n',
    );
    expect(marked).toMatchObject({ notRun: 'a worker for workerd only', example: 'examples/x.ts' });
    expect(indented).toMatchObject({ file: 'b.ts', code: '// b.ts\ny\n' });
    expect(isReason('later')).toBe(false);
  });
});
