// The batch commands' flags: each misuse is a usage error (exit 2) naming the flag, found before
// anything is read or sent; plain http to a host that is not loopback is refused as verify refuses it.
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { capture } from '../in-process.js';
import { tempDir } from './harness.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let input: string;
beforeAll(async () => {
  dir = await tempDir();
  input = dir.file('in.jsonl');
  await writeFile(input, '');
});
afterAll(() => dir?.remove());

const TOKEN = 'tok_0123456789abcdef';
const run = async (...args: string[]) => {
  const io = capture();
  const code = await main(args, COMMANDS, io);
  return { code, err: io.stderr.join('\n'), out: io.stdout.join('\n') };
};

describe('update-many and export-keys flags', () => {
  it.each([
    [['update-many', '--dry-run'], '--input'],
    [['update-many', '--input', 'x', '--dry-run', '--concurrency', '0'], '--concurrency'],
    [['update-many', '--input', 'x', '--dry-run', '--concurrency', '257'], '--concurrency'],
    [['update-many', '--input', 'x', '--dry-run', '--rate', 'fast'], '--rate'],
    [['update-many', '--input', 'missing.jsonl', '--dry-run'], '--input'],
    [['export-keys', '--base-url', 'http://127.0.0.1:1', '--token', TOKEN], '--out'],
    [
      ['export-keys', '--out', 'k.jsonl', '--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--limit', '201'],
      '--limit',
    ],
  ])('%j: exit 2 naming %s', async (args, flag) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.err).toContain(flag);
  });

  it.each(['update-many', 'export-keys'])(
    '%s refuses plain http to a host that is not loopback, and no credentials',
    async (name) => {
      const target = name === 'update-many' ? ['--input', input] : ['--out', dir.file('k.jsonl')];
      const remote = await run(name, ...target, '--base-url', 'http://example.com', '--token', TOKEN);
      expect(remote.code).toBe(2);
      expect(remote.err).toMatch(/--base-url .*--allow-insecure-http/);
      expect(remote.err).not.toContain(TOKEN);
      const none = await run(name, ...target, '--base-url', 'http://127.0.0.1:1');
      expect(none.code).toBe(2);
      expect(none.err).toContain('--token');
    },
  );

  it('export-keys says on stderr that --allow-insecure-http let plain http through, as update-many does', async () => {
    // --out equal to --journal is refused before anything is sent: the warning comes first, the refusal last.
    const out = dir.file('k.jsonl');
    const { code, err } = await run(
      'export-keys',
      ...['--out', out, '--journal', out, '--base-url', 'http://example.com', '--allow-insecure-http'],
      ...['--token', TOKEN],
    );
    expect(code).toBe(2);
    const lines = err.split('\n');
    expect(lines[0]).toMatch(/^warning: --allow-insecure-http: --base-url .*clear/);
    expect(lines.at(-1)).toContain('--journal');
    expect(err).not.toContain(TOKEN);
  });

  it('an --input that does not exist is said in words, not as a system code', async () => {
    const { code, err } = await run('update-many', '--input', dir.file('nope.csv'), '--dry-run');
    expect(code).toBe(2);
    expect(err.split('\n').at(-1)).toMatch(/--input .*nope\.csv does not exist/);
    expect(err).not.toContain('ENOENT');
  });
});
