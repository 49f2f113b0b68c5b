// The batch guide's script that makes updates.jsonl (both languages) runs as written in a fresh
// folder, and what it writes is what update-many takes: --dry-run finds every line valid.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { runMain } from '../cli/batch/harness.js';

const exec = promisify(execFile);
const SCRIPT = /```js\n(\/\/ make-updates\.mjs[\s\S]*?)```/;

describe.each(['docs/guides/batch.md', 'docs/guias/batch.md'])('%s: making updates.jsonl from a script', (guide) => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'make-updates-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs as written, and update-many --dry-run finds every line valid', async () => {
    const script = SCRIPT.exec(await readFile(join(repoRoot, guide), 'utf8'))?.[1];
    expect(script, 'the guide shows make-updates.mjs').toBeDefined();
    await writeFile(join(dir, 'make-updates.mjs'), script!);
    const made = await exec(process.execPath, ['make-updates.mjs'], { cwd: dir });
    expect(made.stdout).toBe('updates.jsonl: 2 lines\n');
    const lines = (await readFile(join(dir, 'updates.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    // The command in process (the file the script wrote, from its folder): what it is as a process is
    // test/support/cli.test.ts's.
    const checked = await runMain(['update-many', '--input', join(dir, 'updates.jsonl'), '--dry-run'], {
      NO_COLOR: '1',
    });
    expect(checked.stdout, checked.stderr).toContain('2 lines: 2 valid, 0 invalid; nothing sent (--dry-run)');
  });
});
