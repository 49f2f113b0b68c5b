// The contributing guide's first commands on a clean checkout: a git clone of this repository into a
// temporary folder (so nothing built or ignored here, such as site/ or dist/, is there), `npm ci`, then
// `npm start`, which must lint, generate, build the docs and reach the mock. A matrix test: `npm ci` of
// the whole repository takes a minute or more even from npm's cache.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { descendants, killTree, startUntil } from '../cli/processes.js';

const exec = promisify(execFile);

describe('a fresh clone, as docs/guides/contributing.md starts', () => {
  let dir: string;
  let clone: string;
  const started: number[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fresh-clone-'));
    clone = join(dir, 'repo');
    // The committed tree only: what CI's fresh clone of main has.
    await exec('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone]);
  }, 120_000);

  afterAll(async () => {
    killTree(started);
    await rm(dir, { recursive: true, force: true });
  });

  it('has no site/ folder to begin with (it is ignored), so npm start must make it', () => {
    expect(existsSync(join(clone, 'site'))).toBe(false);
    expect(existsSync(join(clone, 'package-lock.json'))).toBe(true);
  });

  it('npm ci && npm start: lint, generate and docs, then the mock answers', async () => {
    await exec('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: clone,
      maxBuffer: 64 * 1024 * 1024,
    });
    // `npm start -- --port 0`: the guide's command, on a free port.
    const start = startUntil('npm', ['start', '--', '--port', '0'], /Mock listening on (http:\/\/127\.0\.0\.1:\d+)/, {
      cwd: clone,
      timeoutMs: 600_000,
    });
    started.push(start.child.pid!);
    try {
      const line = await start.ready;
      started.push(...descendants(start.child.pid!));
      const output = start.output();
      expect(output).toMatch(/• lint .* done in \d+ ms/);
      expect(output).toMatch(/• bundle and generate types .* done in \d+ ms/);
      expect(output).toMatch(/• docs .* done in \d+ ms/);
      expect(output).not.toMatch(/its folder does not exist/);
      // What the guide shows npm start printing (docs/guides/contributing.md).
      expect(output).toMatch(/^Docs: file:\/\/.*\/site\/index\.html$/m);
      expect(output).toMatch(
        /^ {2}try: curl -H 'Authorization: Bearer test' -H 'User-Agent: demo\/1' http:\/\/127\.0\.0\.1:\d+\/v2\/api\/pix\/keys\/list-keys$/m,
      );
      const page = await readFile(join(clone, 'site', 'index.html'), 'utf8');
      expect(page.length).toBeGreaterThan(100_000);
      const base = /http:\/\/127\.0\.0\.1:\d+/.exec(line)![0];
      const answer = await fetch(`${base}/v2/api/pix/keys/list-keys`, {
        headers: { authorization: 'Bearer test', 'user-agent': 'fresh-clone/1' },
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { data: unknown[] }).data).toBeInstanceOf(Array);
    } finally {
      started.push(...descendants(start.child.pid!));
      killTree(started);
    }
  }, 1_500_000);
});
