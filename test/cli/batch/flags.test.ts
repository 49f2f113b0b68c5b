// The batch commands' flags: each misuse is a usage error (exit 2) naming the flag, found before
// anything is read or sent; plain http to a host that is not loopback is refused as verify refuses it.
import { mkdir, writeFile } from 'node:fs/promises';
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

  // The words are pinned in test/cli/help.test.ts; here, the flag, the rule and that it says what to do.
  describe('the mistakes a user makes with the files: the flag named, the rule, what to do; nothing sent', () => {
    // Port 1: nothing listens there, so a run that went as far as sending would fail otherwise (exit 1).
    const target = ['--base-url', 'http://127.0.0.1:1', '--token', TOKEN];
    const file = async (name: string, text: string) => {
      await writeFile(dir.file(name), text);
      return dir.file(name);
    };
    it.each([
      [
        'update-many --input a folder',
        async () => ['update-many', '--input', dir.path],
        /--input .* is a folder; give /,
      ],
      [
        'update-many --input an empty file',
        async () => ['update-many', '--input', await file('empty.jsonl', '')],
        /--input .*empty\.jsonl is empty.*; give /,
      ],
      [
        'update-many --input blank lines only',
        async () => ['update-many', '--input', await file('blank.jsonl', '\n\n')],
        /--input .* blank lines.*; give /,
      ],
      [
        'update-many --input a header-only CSV',
        async () => ['update-many', '--input', await file('header.csv', 'Account,DocumentNumber,email\n')],
        /--input .* header row .*; add /,
      ],
      [
        'update-many --dry-run on an empty file',
        async () => ['update-many', '--dry-run', '--input', await file('empty2.jsonl', '')],
        /--input .* is empty/,
      ],
      [
        'update-many --input a CSV file under a name not ending in .csv',
        async () => ['update-many', '--input', await file('people.txt', 'Account;DocumentNumber;email\n1;2;a@b.c\n')],
        /--input .*people\.txt: line 1 .*; give .*\.csv/,
      ],
      ['export-keys --out a folder', async () => ['export-keys', '--out', dir.path], /--out .* is a folder; give /],
      [
        'export-keys --out in a folder that does not exist',
        async () => ['export-keys', '--out', dir.file('no/keys.jsonl')],
        /--out .*: its folder .*; create it/,
      ],
      [
        'update-many --journal a file that is not a journal',
        async () => [
          'update-many',
          '--input',
          await file('one.jsonl', '{}\n'),
          '--journal',
          await file('notes.txt', 'shopping list\n'),
        ],
        /--journal .*notes\.txt: line 1 .*; give /,
      ],
      [
        'export-keys --journal a JSON file that is not a journal',
        async () => ['export-keys', '--out', dir.file('k2.jsonl'), '--journal', await file('other.json', '{"a":1}\n')],
        /--journal .*other\.json .*export-keys journal.*; give /,
      ],
      [
        'update-many --journal a folder',
        async () => ['update-many', '--input', await file('two.jsonl', '{}\n'), '--journal', dir.path],
        /--journal .* is a folder; give /,
      ],
    ])('%s: exit 2, the last line says so', async (_what, args, said) => {
      await mkdir(dir.path, { recursive: true });
      const argv = await args();
      const result = await run(...argv, ...(argv.includes('--dry-run') ? [] : target));
      expect(result.code).toBe(2);
      expect(result.err.split('\n').at(-1)).toMatch(said);
    });
  });
});
