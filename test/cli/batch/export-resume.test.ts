// export-keys resumed from a journal: the journal records the output's place, format, length and the
// SHA-256 of its content, and a rerun checks all of them. A file that is not the one recorded (another
// name, shorter, edited, another format) is refused with exit 2 and left byte for byte as it was; the
// file the journal recorded, with a page written after its last record, is cut back and completed.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { capture } from '../in-process.js';
import { type CountingSandbox, countingSandbox, keyIdsOf, tempDir } from './harness.js';

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
let ids: string[];
beforeAll(async () => {
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 30, keysPerAccount: 2 });
  ids = keyIdsOf(sandbox);
  dir = await tempDir();
});
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

const exportKeys = async (out: string, journal: string) => {
  const io = capture();
  const before = sandbox.requests.length;
  const code = await main(
    [
      'export-keys',
      '--out',
      out,
      '--journal',
      journal,
      '--limit',
      '10',
      '--base-url',
      sandbox.url,
      '--token',
      sandbox.sandbox.clients[0]!.token,
    ],
    COMMANDS,
    io,
  );
  return { code, err: io.stderr.join('\n'), sent: sandbox.requests.length - before };
};

const jsonlIds = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id)
    .sort();

/** A finished export of every key and its journal, in a folder of their own. */
let count = 0;
async function finished() {
  const at = (name: string) => dir.file(`${count}-${name}`);
  count += 1;
  const [out, journal] = [at('keys.jsonl'), at('journal')];
  const result = await exportKeys(out, journal);
  expect(result.code, result.err).toBe(0);
  return { out, journal, at, text: await readFile(out, 'utf8'), journalText: await readFile(journal, 'utf8') };
}

describe('export-keys resumed', () => {
  it('refuses another existing --out, and leaves it whole (was cut to the recorded length)', async () => {
    const { journal, at } = await finished();
    const other = at('other.jsonl');
    const precious = 'p'.repeat(100_000);
    await writeFile(other, precious);
    const result = await exportKeys(other, journal);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--out .*journal/);
    expect(result.sent).toBe(0);
    expect(await readFile(other, 'utf8')).toBe(precious);
  });

  it('refuses the recorded --out shortened or edited, and does not pad or change it', async () => {
    const { out, journal, text } = await finished();
    const short = text.slice(0, 1000);
    await writeFile(out, short);
    const shortened = await exportKeys(out, journal);
    expect(shortened.code).toBe(2);
    expect(await readFile(out, 'utf8')).toBe(short);
    // Same length, one character changed.
    const edited = `${text.slice(0, 100)}${text[100] === 'x' ? 'y' : 'x'}${text.slice(101)}`;
    await writeFile(out, edited);
    const changed = await exportKeys(out, journal);
    expect(changed.code).toBe(2);
    expect(await readFile(out, 'utf8')).toBe(edited);
    expect(shortened.sent + changed.sent).toBe(0);
  });

  it('refuses a .jsonl journal resumed into a .csv, creating nothing', async () => {
    const { journal, journalText, at } = await finished();
    // Unfinished: only the first two pages recorded.
    await writeFile(journal, `${journalText.split('\n').slice(0, 3).join('\n')}\n`);
    const result = await exportKeys(at('keys.csv'), journal);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--out');
    expect(result.sent).toBe(0);
    expect((await readdir(dir.path)).filter((name) => name.endsWith('keys.csv'))).toEqual([]);
  });

  it('refuses a journal whose recorded format is not the file’s', async () => {
    const { out, journal, journalText, text } = await finished();
    await writeFile(journal, journalText.replaceAll('"format":"jsonl"', '"format":"csv"'));
    const result = await exportKeys(out, journal);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/csv/);
    expect(await readFile(out, 'utf8')).toBe(text);
  });

  it('cuts back what follows the last page recorded and completes the file, every key once', async () => {
    const { out, journal, journalText } = await finished();
    // The run "stopped" after page 2 was recorded; pages 3 to 6 and a torn page are in the file unrecorded.
    await writeFile(journal, `${journalText.split('\n').slice(0, 3).join('\n')}\n`);
    await writeFile(out, `${await readFile(out, 'utf8')}{"id":"torn`, { flag: 'w' });
    const result = await exportKeys(out, journal);
    expect(result.code, result.err).toBe(0);
    expect(result.sent).toBe(4);
    expect(await jsonlIds(out)).toEqual(ids);
  });
});
