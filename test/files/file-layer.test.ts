// The command line's one file layer (src/files.ts) on its own, on real files in a temporary folder:
// where a name points (placeOf, distinctFiles), what may be written (never through a link, never over
// a file that is not the command's own), whole files put in place only once written, 0600 for data,
// files read without following a link, and the check that an output is the one its journal records.
// Each refusal is a FileError (a usage error: exit 2) naming the flag and the file, having changed nothing.
import { createHash } from 'node:crypto';
import { link, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beginsWith,
  checkRecordedOutput,
  createNew,
  DATA_FILE_MODE,
  digestOf,
  distinctFiles,
  FileError,
  makeFolder,
  type NamedFile,
  type OpenFile,
  openOwn,
  type OutputRecord,
  placeOf,
  readBytes,
  WholeFile,
  withScratchFolder,
  writableFile,
  writeWholeFile,
} from '../../src/files.js';
import { UsageError } from '../../src/usage-error.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'file-layer-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let count = 0;
/** A fresh folder for one case; `at(name)` is a path in it. */
async function folder() {
  const path = join(root, `case-${++count}`);
  await mkdir(path);
  return { path, at: (name: string) => join(path, name), list: () => readdir(path) };
}

const out = (path: string): NamedFile => ({ flag: '--out', path });
const mode = async (path: string) => (await stat(path)).mode & 0o777;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The FileError `work` rejects with (failing when it resolves or rejects with anything else). */
async function refusal(work: Promise<unknown>): Promise<FileError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileError);
  expect(error).toBeInstanceOf(UsageError);
  expect((error as Error).name).toBe('FileError');
  return error as FileError;
}

/** Everything `readBytes` yields, and the size of each chunk. */
async function readAll(file: NamedFile, range?: { start?: number; end?: number }) {
  const chunks: Buffer[] = [];
  for await (const chunk of readBytes(file, range)) chunks.push(chunk);
  return { text: Buffer.concat(chunks).toString('utf8'), sizes: chunks.map((chunk) => chunk.byteLength) };
}

describe('placeOf and distinctFiles: one file, however it is named', () => {
  it('gives the real folder and the name, for a relative path, a path through .. and a linked folder', async () => {
    const { path, at } = await folder();
    await mkdir(at('real'));
    await symlink(at('real'), at('linked'));
    const place = join(path, 'real', 'f.json');
    expect(await placeOf(out(join(path, 'real', 'f.json')))).toBe(place);
    expect(await placeOf(out(relative(process.cwd(), at('real/f.json'))))).toBe(place);
    expect(await placeOf(out(`${at('real')}/../real/f.json`))).toBe(place);
    expect(await placeOf(out(at('linked/f.json')))).toBe(place);
  });

  it('refuses a name whose folder does not exist, naming the flag and the path', async () => {
    const { at } = await folder();
    const error = await refusal(placeOf(out(at('missing/f.json'))));
    expect(error.message).toContain(`--out ${at('missing/f.json')}`);
  });

  it('lets a folder error other than a missing one through as it is', async () => {
    const { at } = await folder();
    await writeFile(at('file'), 'x');
    // A file where a folder should be: a second path through it is ENOTDIR, not "does not exist".
    await expect(placeOf(out(at('file/inner/f.json')))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('refuses two flags naming one file: the same place, or the same inode through a hard link', async () => {
    const { at } = await folder();
    await writeFile(at('in.jsonl'), 'x');
    await link(at('in.jsonl'), at('hard.jsonl'));
    const input = { flag: '--input', path: at('in.jsonl') };
    const samePlace = await refusal(distinctFiles([input, { flag: '--report', path: `${at('')}/./in.jsonl` }]));
    expect(samePlace.message).toContain('--input');
    expect(samePlace.message).toContain(`--report ${at('')}/./in.jsonl`);
    const sameInode = await refusal(distinctFiles([input, { flag: '--report', path: at('hard.jsonl') }]));
    expect(sameInode.message).toContain('--report');
    // One file that does not exist yet, named twice: the same place is enough.
    await refusal(distinctFiles([out(at('new.jsonl')), { flag: '--report', path: `${at('')}/./new.jsonl` }]));
    // Different files, existing or not yet (no inode to share), are distinct.
    await writeFile(at('other.jsonl'), 'y');
    await expect(
      distinctFiles([
        { flag: '--report', path: at('other.jsonl') },
        input,
        out(at('a.jsonl')),
        { flag: '--journal', path: at('b') },
        { flag: '--report', path: at('c') },
      ]),
    ).resolves.toBeUndefined();
  });

  it('lets a stat error other than a missing file through as it is', async () => {
    const { at } = await folder();
    await writeFile(at('file'), 'x');
    await expect(distinctFiles([out(at('file/f.json'))])).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('what may be written', () => {
  it('writableFile: undefined when missing, the stats of a regular file, a refusal for a link or a folder', async () => {
    const { at } = await folder();
    expect(await writableFile(out(at('new')))).toBeUndefined();
    await writeFile(at('file'), 'four');
    expect((await writableFile(out(at('file'))))?.size).toBe(4);
    await symlink(at('file'), at('link'));
    expect((await refusal(writableFile(out(at('link'))))).message).toMatch(
      new RegExp(`^--out ${at('link')} .*symbolic link`),
    );
    await expect(writableFile(out(at('file/inner')))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await mkdir(at('dir'));
    expect((await refusal(writableFile(out(at('dir'))))).message).toMatch(
      new RegExp(`^--out ${at('dir')} is a folder`),
    );
  });

  it('createNew: a new file 0600, never over an existing one or through a link; other errors as they are', async () => {
    const { at } = await folder();
    const handle = await createNew(out(at('new')), 'choose another name');
    await handle.writeFile('data');
    await handle.close();
    expect(await mode(at('new'))).toBe(DATA_FILE_MODE);
    const exists = await refusal(createNew(out(at('new')), 'choose another name'));
    expect(exists.message).toContain(`--out ${at('new')}`);
    expect(exists.message).toContain('choose another name');
    expect(await readFile(at('new'), 'utf8')).toBe('data');
    await symlink(at('target'), at('dangling'));
    await refusal(createNew(out(at('dangling')), 'x'));
    await expect(lstat(at('target'))).rejects.toMatchObject({ code: 'ENOENT' });
    // A system error is said in our words, of the user's path and its folder (issue 36).
    const missing = await refusal(createNew(out(at('missing/new')), 'x'));
    expect(missing.message).toBe(
      `--out ${at('missing/new')}: its folder ${at('missing')} does not exist; create it first, or choose another path`,
    );
  });

  it('openOwn: refuses a file with more than one name (hard links): it is not the run’s own', async () => {
    const { at } = await folder();
    await writeFile(at('journal'), '');
    await link(at('journal'), at('elsewhere'));
    const linked = await refusal(openOwn(out(at('journal'))));
    expect(linked.message).toContain('has 2 names (hard links)');
    expect(await readFile(at('elsewhere'), 'utf8')).toBe('');
  });

  it('openOwn: appends to a regular file; refuses a link and what is not a regular file', async () => {
    const { at } = await folder();
    await writeFile(at('journal'), 'one\n');
    const handle = await openOwn(out(at('journal')));
    await handle.write('two\n');
    await handle.close();
    expect(await readFile(at('journal'), 'utf8')).toBe('one\ntwo\n');
    await symlink(at('journal'), at('link'));
    expect((await refusal(openOwn(out(at('link'))))).message).toContain('symbolic link');
    expect(await readFile(at('journal'), 'utf8')).toBe('one\ntwo\n');
    // A character device opens for writing, and is still refused.
    expect((await refusal(openOwn(out('/dev/null')))).message).toMatch(/^--out \/dev\/null .*not a regular file/);
    expect((await refusal(openOwn(out(at('missing'))))).message).toContain('does not exist');
  });
});

describe('reading', () => {
  it('readBytes: the whole file or a range, in chunks of 64 KiB at most, never through a link', async () => {
    const { at } = await folder();
    const text = 'abcdefghij'.repeat(20_000);
    await writeFile(at('big'), text);
    const whole = await readAll(out(at('big')));
    expect(whole.text).toBe(text);
    expect(whole.sizes[0]).toBe(64 * 1024);
    expect(Math.max(...whole.sizes)).toBe(64 * 1024);
    expect((await readAll(out(at('big')), { start: 3, end: 6 })).text).toBe('defg');
    await symlink(at('big'), at('link'));
    const linked = readAll(out(at('link')));
    expect((await refusal(linked)).message).toMatch(new RegExp(`^--out ${at('link')} .*symbolic link`));
    await expect(readAll(out(at('missing')))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('beginsWith: true only for a regular file that starts with the prefix, never through a link', async () => {
    const { at } = await folder();
    const isReport = beginsWith('{\n  "tool"');
    await writeFile(at('report'), '{\n  "tool": "verify"}');
    await writeFile(at('other'), '{\n  "nope": 1}');
    await writeFile(at('short'), '{\n');
    await symlink(at('report'), at('link'));
    expect(await isReport(out(at('report')))).toBe(true);
    expect(await isReport(out(at('other')))).toBe(false);
    expect(await isReport(out(at('short')))).toBe(false);
    expect(await isReport(out(at('link')))).toBe(false);
    expect(await isReport(out(at('missing')))).toBe(false);
  });

  it('digestOf: SHA-256 of the first bytes (all when the file is shorter), with the hash to go on with', async () => {
    const { at } = await folder();
    await writeFile(at('f'), 'hello world');
    expect(await digestOf(out(at('f')), 5)).toMatchObject({ hex: sha256('hello'), read: 5 });
    expect(await digestOf(out(at('f')), 100)).toMatchObject({ hex: sha256('hello world'), read: 11 });
    const none = await digestOf(out(at('f')), 0);
    expect(none).toMatchObject({ hex: sha256(''), read: 0 });
    const { hash } = await digestOf(out(at('f')), 5);
    expect(hash.update(' more').digest('hex')).toBe(sha256('hello more'));
  });
});

describe('whole files', () => {
  const NOT_OURS = 'remove it or choose another name';

  it('a new file: written beside the target (0600), put in place on commit, no temporary file left', async () => {
    const { at, list } = await folder();
    const whole = await WholeFile.create(out(at('report.json')), undefined, NOT_OURS);
    await whole.handle.writeFile('{"a":1}');
    expect(await list()).toEqual([expect.stringMatching(/^\.report\.json\.[0-9a-f]{12}\.tmp$/)]);
    expect(await mode(at((await list())[0]!))).toBe(DATA_FILE_MODE);
    await whole.commit();
    await whole.commit();
    await whole.discard();
    expect(await list()).toEqual(['report.json']);
    expect(await readFile(at('report.json'), 'utf8')).toBe('{"a":1}');
    expect(await mode(at('report.json'))).toBe(DATA_FILE_MODE);
  });

  it('a file put at the target while writing is kept; the temporary file (personal data) goes, never named', async () => {
    const { at, list } = await folder();
    const whole = await WholeFile.create(out(at('report.json')), undefined, NOT_OURS);
    await whole.handle.writeFile('mine');
    const [temporary] = await list();
    await writeFile(at('report.json'), 'theirs');
    const error = await refusal(whole.commit());
    expect(error.message).toContain(`--out ${at('report.json')}`);
    expect(error.message).not.toContain(temporary!);
    expect(await readFile(at('report.json'), 'utf8')).toBe('theirs');
    expect(await list()).toEqual(['report.json']);
  });

  it('the target made between the check and the link: link refuses it, nothing of this run is left', async () => {
    const { at, list } = await folder();
    const target = at('report.json');
    // The check after writing finds nothing there, then a file appears before the link: the race the
    // link closes, since it never replaces anything (a rename would).
    let asked = 0;
    const whole = await WholeFile.create(out(target), undefined, NOT_OURS);
    await whole.handle.writeFile('mine');
    const [temporary] = await list();
    const realCheck = WholeFile.check;
    WholeFile.check = async (...args) => {
      await realCheck(...args);
      asked += 1;
      if (asked === 1) await writeFile(target, 'theirs');
    };
    try {
      const error = await refusal(whole.commit());
      expect(error.message).not.toContain(temporary!);
    } finally {
      WholeFile.check = realCheck;
    }
    expect(await readFile(target, 'utf8')).toBe('theirs');
    expect(await list()).toEqual(['report.json']);
  });

  it('an existing file is replaced only when owned says it is the command’s own', async () => {
    const { at, list } = await folder();
    const isOurs = beginsWith('ours');
    await writeFile(at('mine'), 'ours, old');
    await writeFile(at('theirs'), 'not ours');
    await writeWholeFile(out(at('mine')), 'ours, new', isOurs, NOT_OURS);
    expect(await readFile(at('mine'), 'utf8')).toBe('ours, new');
    const refused = await refusal(writeWholeFile(out(at('theirs')), 'ours', isOurs, NOT_OURS));
    expect(refused.message).toContain(NOT_OURS);
    expect(await readFile(at('theirs'), 'utf8')).toBe('not ours');
    // Without owned, nothing existing is ever replaced.
    await refusal(WholeFile.check(out(at('mine')), undefined, NOT_OURS));
    expect((await list()).sort()).toEqual(['mine', 'theirs']);
  });

  it('refuses a link at the target, and a missing folder, before anything is written', async () => {
    const { at, list } = await folder();
    await writeFile(at('elsewhere'), 'keep');
    await symlink(at('elsewhere'), at('link'));
    const linked = await refusal(writeWholeFile(out(at('link')), 'x', async () => true, NOT_OURS));
    expect(linked.message).toContain('symbolic link');
    expect(await readFile(at('elsewhere'), 'utf8')).toBe('keep');
    const missing = await refusal(writeWholeFile(out(at('no/such/f.json')), 'x', async () => true, NOT_OURS));
    expect(missing.message).toMatch(new RegExp(`^--out ${at('no/such/f.json')}: .*folder`));
    expect((await list()).sort()).toEqual(['elsewhere', 'link']);
  });

  it('writeWholeFile: 0600 by default, the mode asked for a page that holds no data', async () => {
    const { at } = await folder();
    await writeWholeFile(out(at('data')), 'x', async () => false, NOT_OURS);
    expect(await mode(at('data'))).toBe(0o600);
    await writeWholeFile(out(at('page.html')), '<html>', async () => false, NOT_OURS, 0o644);
    expect(await mode(at('page.html'))).toBe(0o644);
    expect(await readFile(at('page.html'), 'utf8')).toBe('<html>');
  });

  it('writeWholeFile: a write that fails leaves nothing behind; a refused commit leaves nothing of this run either', async () => {
    const { at, list } = await folder();
    // Text the handle cannot write: the failure comes before anything is put in place.
    await expect(writeWholeFile(out(at('f')), 42 as unknown as string, async () => false, NOT_OURS)).rejects.toThrow();
    expect(await list()).toEqual([]);
    // A file put at the target while the text was written: refused, and the text kept where the error says.
    const realCheck = WholeFile.check;
    let checks = 0;
    WholeFile.check = async (...args) => {
      await realCheck(...args);
      checks += 1;
      if (checks === 1) await writeFile(at('f'), 'theirs');
    };
    let error: FileError;
    try {
      error = await refusal(writeWholeFile(out(at('f')), 'mine', async () => false, NOT_OURS));
    } finally {
      WholeFile.check = realCheck;
    }
    expect(error.message).toContain(`--out ${at('f')} exists already`);
    expect(error.message).not.toContain('.tmp');
    expect(await list()).toEqual(['f']);
    expect(await readFile(at('f'), 'utf8')).toBe('theirs');
  });

  it('discard drops the temporary file and puts nothing in place', async () => {
    const { at, list } = await folder();
    const whole = await WholeFile.create(out(at('report.json')), undefined, NOT_OURS);
    await whole.handle.writeFile('never');
    await whole.discard();
    await whole.discard();
    expect(await list()).toEqual([]);
    await whole.commit();
    expect(await list()).toEqual([]);
  });
});

describe('checkRecordedOutput: the output a journal records, or a refusal saying what differs', () => {
  const journal: NamedFile = { flag: '--journal', path: '/tmp/the-journal' };

  async function recorded(text: string, bytes = Buffer.byteLength(text)) {
    const { at } = await folder();
    await writeFile(at('keys.jsonl'), text);
    const file = out(at('keys.jsonl'));
    const record = { out: await placeOf(file), format: 'jsonl', bytes, sha256: sha256(text.slice(0, bytes)) };
    const handle = await openOwn(file);
    handles.push(handle);
    return { file, record, at, handle };
  }
  const handles: OpenFile[] = [];
  afterAll(async () => {
    for (const handle of handles) await handle.close().catch(() => undefined);
  });
  const check = (given: { file: NamedFile; handle: OpenFile }, format: string, record: OutputRecord, exact: boolean) =>
    checkRecordedOutput(given.handle, given.file, format, record, journal, exact);

  it('checks through the descriptor that writes: a file renamed over the name after opening is not the one read', async () => {
    const given = await recorded('line 1\n');
    // Another file put at the name after the open: the check reads (and the run writes) the one opened.
    await writeFile(`${given.file.path}.other`, 'theirs, holders and CPFs\n');
    await rename(`${given.file.path}.other`, given.file.path);
    await expect(check(given, 'jsonl', given.record, true)).resolves.toBeDefined();
    await given.handle.write('line 2\n');
    expect(await readFile(given.file.path, 'utf8')).toBe('theirs, holders and CPFs\n');
  });

  it('the same file, at least as long: resolves with the hash of the recorded bytes, to go on with', async () => {
    const given = await recorded('line 1\nline 2\n', 7);
    const hash = await check(given, 'jsonl', given.record, false);
    expect(hash.update('more').digest('hex')).toBe(sha256('line 1\nmore'));
    // Exactly as long: a resume that goes on, and a finished export.
    const whole = await recorded('line 1\n');
    await expect(check(whole, 'jsonl', whole.record, false)).resolves.toBeDefined();
    await expect(check(whole, 'jsonl', whole.record, true)).resolves.toBeDefined();
  });

  it.each([
    ['another place', (r: OutputRecord) => ({ ...r, out: '/elsewhere/keys.jsonl' }), '/elsewhere/keys.jsonl'],
    ['another format', (r: OutputRecord) => ({ ...r, format: 'csv' }), 'csv'],
    ['shorter than recorded', (r: OutputRecord) => ({ ...r, bytes: r.bytes + 1 }), 'bytes'],
    ['other content', (r: OutputRecord) => ({ ...r, sha256: sha256('other') }), 'content'],
  ])('%s: refused, naming the file, the journal and what differs; nothing changed', async (_name, change, what) => {
    const given = await recorded('line 1\n');
    const { file } = given;
    const error = await refusal(check(given, 'jsonl', change(given.record), false));
    expect(error.message).toContain(`--out ${file.path}`);
    expect(error.message).toContain(journal.path);
    expect(error.message).toContain(what);
    expect(await readFile(file.path, 'utf8')).toBe('line 1\n');
  });

  it('a finished export longer than recorded is refused', async () => {
    const given = await recorded('line 1\nline 2\n', 7);
    const longer = await refusal(check(given, 'jsonl', given.record, true));
    expect(longer.message).toContain('14 bytes');
    expect(longer.message).toContain('recorded 7');
  });
});

describe('withScratchFolder', () => {
  it('gives a private folder whose files are new and 0600, and removes it with them when the work ends', async () => {
    let seen = '';
    const result = await withScratchFolder('file-layer-scratch-', async (scratch) => {
      seen = scratch.path;
      expect(await mode(scratch.path)).toBe(0o700);
      await scratch.write('a.json', '{}');
      expect(await readFile(scratch.file('a.json'), 'utf8')).toBe('{}');
      expect(await mode(scratch.file('a.json'))).toBe(DATA_FILE_MODE);
      // Created new: a name already there is never written over.
      await expect(scratch.write('a.json', 'again')).rejects.toMatchObject({ code: 'EEXIST' });
      // A name is a name in the folder, never a path out of it.
      expect(scratch.file('../../escape')).toBe(join(scratch.path, 'escape'));
      return 7;
    });
    expect(result).toBe(7);
    await expect(stat(seen)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes the folder when the work fails too, and passes the failure on', async () => {
    let seen = '';
    const failure = new Error('redocly failed');
    await expect(
      withScratchFolder('file-layer-scratch-', async (scratch) => {
        seen = scratch.path;
        await scratch.write('openapi.json', '{}');
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(stat(seen)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('makeFolder', () => {
  it('makes the folder with its parents, and takes one that is there', async () => {
    const { at } = await folder();
    await makeFolder(out(at('a/b/site')));
    expect((await stat(at('a/b/site'))).isDirectory()).toBe(true);
    await makeFolder(out(at('a/b/site')));
  });

  it('refuses a path that is a file, or under one, naming the flag; the file is left as it was', async () => {
    const { at } = await folder();
    await writeFile(at('page.html'), 'mine');
    for (const path of [at('page.html'), at('page.html/site')]) {
      const error = await refusal(makeFolder(out(path)));
      expect(error.message).toContain(`--out ${path}`);
    }
    expect(await readFile(at('page.html'), 'utf8')).toBe('mine');
  });
});
