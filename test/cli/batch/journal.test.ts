// The journal on disk: a line torn by a crash mid-write is ignored and cut off before the next
// entry is appended; another command's journal, or a whole line that is not JSON, is refused.
import { readFile, writeFile } from 'node:fs/promises';
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

  it("refuses export-keys' journal for update-many, and a whole line that is not JSON", async () => {
    const other = dir.file('other');
    await writeFile(other, '{"journal":"export-keys","version":1}\n');
    await expect(readJournal(other, 'update-many', () => undefined)).rejects.toThrow(JournalError);
    const edited = dir.file('edited');
    await writeFile(edited, `${HEADER}not json\n{"line":1,"outcome":"ok"}\n`);
    await expect(readJournal(edited, 'update-many', () => undefined)).rejects.toThrow(/line 2/);
  });
});
