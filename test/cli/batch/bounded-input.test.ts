// Bounded input: each CSV field or record and each JSONL line is read up to a limit (1 MiB; lowered
// here through the readers' option), one byte past it is refused by its line number and the lines
// after it are read as usual; bytes that are not UTF-8 are refused, never sent as U+FFFD; an unclosed
// quote of many megabytes keeps memory flat.
import { writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedLines, MAX_RECORD_BYTES } from '../../../src/cli/batch/bounded-input.js';
import { CsvProblem, csvRecords } from '../../../src/cli/batch/formats/csv-read.js';
import { decodedText, EncodingProblem } from '../../../src/cli/batch/formats/encoding.js';
import { type InputLine, readInput, WHOLE_LINE } from '../../../src/cli/batch/input.js';
import { tempDir } from './harness.js';

// Memory held, not memory not yet collected: a full collection before each reading, so that garbage
// the collector has not reached yet (later on a loaded machine) never counts as kept.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const liveBytes = (): number => {
  collect();
  const now = process.memoryUsage();
  return now.heapUsed + now.arrayBuffers;
};

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir?.remove());

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

const read = async (path: string, maxRecordBytes?: number) => {
  const lines: InputLine[] = [];
  for await (const line of readInput(path, maxRecordBytes === undefined ? {} : { maxRecordBytes })) lines.push(line);
  return lines;
};

// The line numbers of bad lines and their rules, and of good ones.
const outcome = (lines: InputLine[]) => ({
  bad: lines.filter((line) => line.issues).map((line) => [line.line, line.issues!.map((i) => i.field)]),
  good: lines.filter((line) => line.item).map((line) => line.line),
});

const ACCOUNT = { account: '1234567', documentNumber: '52998224725' };
const jsonl = (socialName: string) => JSON.stringify({ ...ACCOUNT, body: { socialName } });

describe('JSONL input', () => {
  it('refuses a line one byte over the limit by its number, takes one at the limit, and reads on', async () => {
    const limit = 200;
    // JSON may end in spaces: lines of any length that are valid whole.
    const at = jsonl('Ana').padEnd(limit);
    const over = jsonl('Ana').padEnd(limit + 1);
    const path = dir.file('limit.jsonl');
    await writeFile(path, [jsonl('Ana'), at, over, jsonl('Bia')].join('\r\n'));
    const lines = await read(path, limit);
    expect(outcome(lines)).toEqual({ bad: [[3, [WHOLE_LINE]]], good: [1, 2, 4] });
    expect(lines[2]!.issues![0]!.rule).toContain(`${limit} bytes`);
  });

  it('refuses a line of the real limit plus one byte (1 MiB)', async () => {
    const path = dir.file('mib.jsonl');
    const over = jsonl('Ana').padEnd(MAX_RECORD_BYTES + 1);
    await writeFile(path, `${over}\n${jsonl('Ana')}\n`);
    expect(outcome(await read(path))).toEqual({ bad: [[1, [WHOLE_LINE]]], good: [2] });
  });

  it('refuses a file with a line that is not UTF-8 as a whole, instead of sending U+FFFD or half the file', async () => {
    const path = dir.file('latin1.jsonl');
    // "Jos\xE9": Latin-1, as a spreadsheet may save it.
    await writeFile(path, bytes(jsonl('Ana'), '\n', jsonl('Jos').slice(0, -3), [0xe9], '"}}\n', jsonl('Bia')));
    await expect(read(path)).rejects.toThrow(/line 2 is not UTF-8.*nothing was sent/);
  });

  // Notepad and other Windows editors save UTF-8 with a byte order mark: line 1 was "not valid JSON".
  it('reads a first line that starts with a byte order mark, and only the first', async () => {
    const path = dir.file('bom.jsonl');
    await writeFile(path, bytes([0xef, 0xbb, 0xbf], jsonl('Ana'), '\n', [0xef, 0xbb, 0xbf], jsonl('Bia'), '\n'));
    expect(outcome(await read(path))).toEqual({ bad: [[2, [WHOLE_LINE]]], good: [1] });
  });

  it('reads a character whose bytes are split between two chunks', async () => {
    const text = Buffer.from('ação\nçé\n');
    const chunks = [...text].map((byte) => Buffer.from([byte]));
    const lines = [];
    for await (const line of boundedLines(Readable.from(chunks))) lines.push(line.text);
    expect(lines).toEqual(['ação', 'çé']);
  });
});

const csvOf = async (input: Buffer | string, maxRecordBytes: number) => {
  const records = [];
  for await (const record of csvRecords(decodedText(Readable.from([Buffer.from(input)])), { maxRecordBytes }))
    records.push({ line: record.line, fields: record.fields });
  return records;
};

/** What stops the reading of `input`: its class, line and rule. */
const stopOf = async (input: Buffer | string, maxRecordBytes: number) => {
  const error = await csvOf(input, maxRecordBytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof CsvProblem || error instanceof EncodingProblem ? error : undefined;
};

describe('a line of 16 MiB', () => {
  it('is refused with memory kept flat', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'y'.charCodeAt(0));
    let peak = 0;
    const base = liveBytes();
    async function* source() {
      for (let i = 0; i < 16; i++) {
        peak = Math.max(peak, liveBytes() - base);
        yield chunk;
      }
      yield Buffer.from('\n{}\n');
    }
    const lines = [];
    for await (const line of boundedLines(source())) lines.push([line.number, line.problem ?? line.text]);
    expect(lines).toEqual([
      [1, 'too-long'],
      [2, '{}'],
    ]);
    // At most the 1 MiB limit is kept; the line whole would be 16 MiB.
    expect(peak).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('CSV input', () => {
  it('stops at a field over the limit, by the line its record starts on; takes one at the limit', async () => {
    const over = await stopOf(`a,b\nc,d\n"${'y\n'.repeat(6)}",2\nc,d\n`, 10);
    expect(over).toBeInstanceOf(CsvProblem);
    expect(over!.line).toBe(3);
    expect((over as CsvProblem).rule).toMatch(/^is longer than 10 bytes/);
    expect((await stopOf(`a,b\n"${'x'.repeat(11)}",1\n`, 10))?.line).toBe(2);
    // At the limit: read.
    expect((await csvOf(`${'x'.repeat(8)},y\n`, 10))[0]!.fields).toEqual(['x'.repeat(8), 'y']);
  });

  it('stops at a record of short fields over the limit (the fields counted, not the separators)', async () => {
    expect((await stopOf('a,b,c,d,e,f,g,h,i,j,k\n', 10))?.line).toBe(1);
    expect((await csvOf('a,b,c,d,e,f,g,h,i,j\n', 10))[0]!.fields).toHaveLength(10);
  });

  it('stops at the first byte that is not UTF-8, by its line, before any record after it', async () => {
    const stop = await stopOf(bytes('a,b\nc,d\nJos', [0xe9], ',1\nc,d\n'), MAX_RECORD_BYTES);
    expect(stop).toBeInstanceOf(EncodingProblem);
    expect(stop!.line).toBe(3);
  });

  it('refuses an over-long record through update-many input as the whole file, naming its line', async () => {
    const path = dir.file('long.csv');
    await writeFile(path, `Account,DocumentNumber,socialName\n1,2,"${'z'.repeat(300)}"\n1234567,52998224725,Ana\n`);
    await expect(read(path, 100)).rejects.toThrow(/line 2 is longer than 100 bytes.*nothing was sent/);
  });

  it('keeps memory flat through an unclosed quote of 16 MiB', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x'.charCodeAt(0));
    let peak = 0;
    const base = liveBytes();
    async function* source() {
      yield Buffer.from('a,"');
      for (let i = 0; i < 16; i++) {
        peak = Math.max(peak, liveBytes() - base);
        yield chunk;
      }
    }
    const error = await (async () => {
      for await (const _ of csvRecords(decodedText(source()))) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvProblem);
    expect((error as CsvProblem).line).toBe(1);
    // The reader keeps at most the 1 MiB limit of a record (and the chunk it reads); the field whole would be 16 MiB.
    expect(peak).toBeLessThan(8 * 1024 * 1024);
  });
});
