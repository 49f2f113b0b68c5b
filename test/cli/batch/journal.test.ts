// The journal on disk: a line torn by a crash mid-write is ignored and cut off before the next
// entry is appended; another command's journal, a whole line that is not JSON (or too long), a file
// that is not a journal at all and a forged line number are refused (exit 2, naming the file), and
// the file is left as it was.
import { readFile, writeFile } from 'node:fs/promises';
import { COMMANDS } from '../../../src/cli/commands.js';
import { main } from '../../../src/cli/main.js';
import { capture } from '../in-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalError, JournalWriter, readJournal } from '../../../src/cli/batch/journal.js';
import { DoneLines } from '../../../src/cli/batch/update-journal.js';
import { tempDir } from './harness.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir?.remove());

const HEADER = '{"journal":"update-many","version":1}\n';

describe('the journal', () => {
  it('ignores a torn last line, and the next run appends after the last whole one', async () => {
    const path = dir.file('torn');
    await writeFile(path, `${HEADER}{"line":1,"outcome":"ok","hash":"00ff"}\n{"line":2,"outc`);
    const done = new DoneLines();
    const read = await readJournal(path, 'update-many', (entry) => done.apply(entry));
    expect(done.state(1, '00ff')).toBe('done');
    expect(done.state(2, '0000')).toBeUndefined();
    const writer = await JournalWriter.open(path, 'update-many', read);
    writer.append({ line: 2, outcome: 'ok', hash: '0001' });
    await writer.close();
    expect((await readFile(path, 'utf8')).split('\n')).toEqual([
      HEADER.trim(),
      '{"line":1,"outcome":"ok","hash":"00ff"}',
      '{"line":2,"outcome":"ok","hash":"0001"}',
      '',
    ]);
  });

  it('says a line whose update changed is not done, and a later failure undoes an ok', () => {
    const done = new DoneLines();
    done.apply({ line: 5000, outcome: 'ok', hash: 'abcd' });
    expect(done.state(5000, 'abcd')).toBe('done');
    expect(done.state(5000, 'abce')).toBe('changed');
    done.apply({ line: 5000, outcome: 'failed', hash: 'abcd', status: 503 });
    expect(done.state(5000, 'abcd')).toBeUndefined();
    expect(done.size).toBe(0);
  });

  it('tells a changed line from a done one by 64 bits of its hash: a 16-bit collision is no match', () => {
    const done = new DoneLines();
    done.apply({ line: 7, outcome: 'ok', hash: 'abcd000000000001' });
    expect(done.state(7, 'abcd000000000001')).toBe('done');
    // The same first 16 bits (what version 1 kept), another update: sent again.
    expect(done.state(7, 'abcd000000000002')).toBe('changed');
    expect(done.state(7, 'abcdffffffffffff')).toBe('changed');
    // A version 1 entry is still read, as far as its 16 bits tell.
    done.apply({ line: 8, outcome: 'ok', hash: 'abcd' });
    expect(done.state(8, 'abcd123412341234')).toBe('done');
    expect(done.state(8, 'abce123412341234')).toBe('changed');
  });

  it("refuses export-keys' journal for update-many, and a whole line that is not JSON", async () => {
    const other = dir.file('other');
    await writeFile(other, '{"journal":"export-keys","version":1}\n');
    await expect(readJournal(other, 'update-many', () => undefined)).rejects.toThrow(JournalError);
    const edited = dir.file('edited');
    await writeFile(edited, `${HEADER}not json\n{"line":1,"outcome":"ok"}\n`);
    await expect(readJournal(edited, 'update-many', () => undefined)).rejects.toThrow(/line 2/);
  });

  it('refuses a whole line over 1 MiB, and ignores a torn last line of any length', async () => {
    const long = dir.file('long');
    await writeFile(long, `${HEADER}{"line":1,"outcome":"ok","x":"${'x'.repeat(1024 * 1024)}"}\n`);
    await expect(readJournal(long, 'update-many', () => undefined)).rejects.toThrow(/line 2/);
    const torn = dir.file('long-torn');
    await writeFile(torn, `${HEADER}{"line":1,"outcome":"ok","x":"${'x'.repeat(4 * 1024 * 1024)}`);
    expect(await readJournal(torn, 'update-many', () => undefined)).toMatchObject({ bytes: HEADER.length });
  });

  it.each([
    ['a file that is not a journal (no line break)', 'Account,DocumentNumber\n1,2'.replace('\n', ' ')],
    ['a forged line number', `${HEADER}{"line":1000000000000000,"outcome":"ok","hash":"00ff"}\n`],
    ['a negative line number', `${HEADER}{"line":-1,"outcome":"ok","hash":"00ff"}\n`],
    ['a fractional line number', `${HEADER}{"line":1.5,"outcome":"ok","hash":"00ff"}\n`],
    ['a line number in quotes', `${HEADER}{"line":"1","outcome":"ok","hash":"00ff"}\n`],
    ['an entry without a line', `${HEADER}{"outcome":"ok","hash":"00ff"}\n`],
    ['a line that is not UTF-8', Buffer.from(`${HEADER}{"line":1,"outcome":"ok","x":"\xff"}\n`, 'latin1')],
  ])('refuses %s with exit 2 naming it, and leaves it as it was', async (what, text) => {
    const journal = dir.file(`bad-${what.replace(/\W+/g, '-')}`);
    const input = dir.file('bad-input.jsonl');
    await writeFile(input, '');
    await writeFile(journal, text);
    const before = await readFile(journal);
    const io = capture();
    const code = await main(
      ['update-many', '--input', input, '--journal', journal, '--base-url', 'http://127.0.0.1:1', '--token', 'tok_x'],
      COMMANDS,
      io,
    );
    expect(code).toBe(2);
    expect(io.stderr.join('\n')).toContain(journal);
    expect(await readFile(journal)).toEqual(before);
  });
});
