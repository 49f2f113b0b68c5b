// verify's --report goes through the command line's one file layer (src/files.ts): it replaces only a
// report of verify, never another file or the target of a link, and a refused --report stops the run
// before anything is sent.
import { lstat, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDriftServer, TOKEN } from '../support/drift-server.js';
import { main } from './verify-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-report-file-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function verify(report: string) {
  const server = await startDriftServer();
  const lines: string[] = [];
  try {
    const code = await main(['--base-url', server.url, '--report', report], {
      out: (t) => lines.push(t),
      err: (t) => lines.push(t),
      env: { BAAS_TOKEN: TOKEN },
    });
    return { code, lines, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('verify --report', () => {
  it('writes a report readable by its owner only, and replaces it on the next run', async () => {
    const report = join(dir, 'report.json');
    expect((await verify(report)).code).toBe(0);
    expect((await stat(report)).mode & 0o777).toBe(0o600);
    const second = await verify(report);
    expect(second.code).toBe(0);
    expect(JSON.parse(await readFile(report, 'utf8'))).toMatchObject({ tool: expect.stringMatching(/verify/) });
  });

  it('refuses a file that is not a report of verify, sends nothing, and leaves the file as it was', async () => {
    const other = join(dir, 'notes.json');
    await writeFile(other, '{"mine": true}\n');
    const run = await verify(other);
    expect(run.code).toBe(2);
    expect(run.requests).toBe(0);
    expect(run.lines.at(-1)).toMatch(/--report .*notes\.json.* not a report of verify/);
    expect(await readFile(other, 'utf8')).toBe('{"mine": true}\n');
  });

  it('never writes through a link planted at --report', async () => {
    const target = join(dir, 'target.txt');
    const link = join(dir, 'link.json');
    await writeFile(target, 'keep me\n');
    await symlink(target, link);
    const run = await verify(link);
    expect(run.code).toBe(2);
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
  });
});
