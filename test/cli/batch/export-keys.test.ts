// export-keys: every key exactly once, in JSONL or in CSV with a header row, also when the run was
// killed with SIGKILL and resumed from its journal, even with part of a page written past the
// journal's last record (the rerun cuts it off and fetches that page again). The killed run is a real
// process (what a kill -9 leaves is the point); the runs after it, and the CSV export, run in process.
import { appendFile, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvRecords } from '../../../src/cli/batch/formats/csv-read.js';
import { KEY_COLUMNS } from '../../../src/cli/batch/key-rows.js';
import {
  type CountingSandbox,
  countingSandbox,
  keyIdsOf,
  journalEntries,
  killChildren,
  leaseRunOut,
  runMain,
  startCli,
  tempDir,
  until,
} from './harness.js';

let sandbox: CountingSandbox;
let dir: Awaited<ReturnType<typeof tempDir>>;
let ids: string[];
beforeAll(async () => {
  // 1,000 keys: 100 pages of 10.
  sandbox = await countingSandbox({ clients: 1, accountsPerClient: 50, keysPerAccount: 20 });
  ids = keyIdsOf(sandbox);
  dir = await tempDir();
});
afterEach(killChildren);
afterAll(async () => {
  await sandbox?.stop();
  await dir?.remove();
});

const env = () => ({ BAAS_TOKEN: sandbox.sandbox.clients[0]!.token });
const jsonlIds = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id)
    .sort();

describe('export-keys', () => {
  it('writes every key exactly once after a kill -9 and a resume with the same journal', async () => {
    const [out, journal] = [dir.file('keys.jsonl'), dir.file('journal')];
    const args = ['export-keys', '--out', out, '--base-url', sandbox.url, '--journal', journal, '--limit', '10'];
    // The sandbox answers 30 pages and holds the next: the kill comes at a known point, whatever the load.
    sandbox.holdAfter(30, 'GET');
    const first = startCli(args, env());
    await until(async () => (await journalEntries(journal)).length >= 30);
    first.child.kill('SIGKILL');
    expect((await first.finished).signal).toBe('SIGKILL');
    await leaseRunOut(journal, out);
    sandbox.release();
    // As if the crash came while a page was being written, after the last journal record.
    await appendFile(out, '{"id":"torn page", "key":');
    const second = await runMain(args, env(), { fetch: sandbox.fetch });
    expect(second.code, second.stderr).toBe(0);
    expect(await jsonlIds(out)).toEqual(ids);
    // Done: a third run sends nothing and leaves the file as it is.
    const requests = sandbox.requests.length;
    expect((await runMain(args, env(), { fetch: sandbox.fetch })).code).toBe(0);
    expect(sandbox.requests.length).toBe(requests);
    expect(await jsonlIds(out)).toEqual(ids);
  });

  it('writes CSV with a header row, one row a key', async () => {
    const out = dir.file('keys.csv');
    const run = await runMain(['export-keys', '--out', out, '--base-url', sandbox.url], env(), {
      fetch: sandbox.fetch,
    });
    expect(run.code, run.stderr).toBe(0);
    const records = [];
    for await (const record of csvRecords(Readable.from([await readFile(out, 'utf8')]))) records.push(record.fields);
    expect(records[0]).toEqual([...KEY_COLUMNS]);
    expect(
      records
        .slice(1)
        .map((fields) => fields[0])
        .sort(),
    ).toEqual(ids);
    expect(records.slice(1).every((fields) => fields.length === KEY_COLUMNS.length)).toBe(true);
    // Sent through the fetch the command was given (CommandContext.fetch), not over HTTP.
    expect(sandbox.fetched()).toBeGreaterThan(0);
  });
});
