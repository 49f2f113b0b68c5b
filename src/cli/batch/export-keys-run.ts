// `export-keys`: every PIX key into a file, page after page. With a journal, each page is written
// and synced first, then journaled with the file's place, format, length and the SHA-256 of its
// content, and the next page's cursor; a rerun checks that the file is still the one the journal
// records (refusing, and changing nothing, when it is not), cuts it back to the last journaled length
// and goes on from that cursor, so every key is in the file exactly once however the run before ended.
// Without a journal the file is a whole-file write, renamed into place at the end. Every file is
// opened through ./files.ts.
import type { Hash } from 'node:crypto';
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { createBaasClient } from '../../client/baas-client.js';
import { credentialFailure, exitOfTrouble, refusalMessage, troubleOf } from '../../verify/credentials.js';
import { redactMessage, redactText } from '../../redact.js';
import { UsageError } from '../command.js';
import { n, plural } from '../../words.js';
import type { ExportKeysValues } from '../export-keys.js';
import {
  checkRecordedOutput,
  createNew,
  distinctFiles,
  FileError,
  JournalLock,
  type NamedFile,
  type OutputRecord,
  openOwn,
  placeOf,
  WholeFile,
  writableFile,
} from '../../files.js';
import { EntryProblem, type JournalEntry, JournalWriter, readJournal } from './journal.js';
import { limitFrom, MAX_LIMIT } from '../../verify/options.js';
import { csvHeader, KEY_COLUMNS, keyRows, keyValues, outputFormatOf } from './key-rows.js';
import { CSV_DIALECTS, type CsvDialect, dialectNamed } from './formats/csv-write.js';
import { KeyWorkbook } from './formats/xlsx-write.js';
import { connectionFrom, INSECURE_HTTP_WARNING, paceFrom } from './options.js';
import { Progress } from './progress.js';
import { ReportWriter } from './report.js';
import { exportKeyPages } from '../../batch/export-keys.js';
import { EXIT_ON, Stopper } from './stop.js';
import type { RunIo } from './update-many-run.js';

/** One journal line of export-keys: the page written, the file after it (`OutputRecord`), where to go on. */
export interface ExportJournalEntry extends OutputRecord {
  page: number;
  keys: number;
  /** The cursor of the page after it; null once the last page is written. */
  nextCursor: string | null;
}

const isPageEntry = (entry: JournalEntry): entry is JournalEntry & ExportJournalEntry =>
  Number.isSafeInteger(entry.page) &&
  Number.isSafeInteger(entry.keys) &&
  Number.isSafeInteger(entry.bytes) &&
  (entry.bytes as number) >= 0 &&
  typeof entry.out === 'string' &&
  typeof entry.format === 'string' &&
  typeof entry.sha256 === 'string' &&
  /^[0-9a-f]{64}$/.test(entry.sha256) &&
  (entry.nextCursor === null || typeof entry.nextCursor === 'string');

export const DEFAULT_LIMIT = MAX_LIMIT;

const NEW_OUTPUT = 'export-keys never replaces a file; remove it or choose another name';

/**
 * A stream that writes to `handle` and leaves it open (a FileHandle's own write stream holds the
 * handle until the stream closes it): the file is synced and put in place by its WholeFile.
 */
const writerTo = (handle: FileHandle): Writable =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      handle.write(chunk).then(() => done(), done);
    },
  });

/** --csv-dialect, checked: a dialect it knows, for a .csv file. */
function dialectFrom(value: string | undefined, format: string): CsvDialect {
  if (value === undefined) return 'rfc4180';
  const dialect = dialectNamed(value);
  if (dialect === undefined)
    throw new UsageError(`--csv-dialect must be one of ${CSV_DIALECTS.join(', ')}, got "${value}"`);
  if (format !== 'csv') throw new UsageError('--csv-dialect is for a .csv --out file; leave it out');
  return dialect;
}

export async function runExportKeys(values: ExportKeysValues, io: RunIo): Promise<number> {
  const out = values.out;
  if (!out) throw new UsageError('--out FILE is required');
  const limit = limitFrom(values.limit, DEFAULT_LIMIT);
  const { rate } = paceFrom(values);
  const connection = connectionFrom(values, io.env);
  if (connection.insecureHttp) io.err(INSECURE_HTTP_WARNING);
  const { credentials } = connection;
  const outFile: NamedFile = { flag: '--out', path: out };
  // A folder given as --out is said as such, before its name's ending is.
  await writableFile(outFile);
  const format = outputFormatOf(out);
  const dialect = dialectFrom(values['csv-dialect'], format);
  // A workbook is a zip archive: it cannot be cut back to a page and continued.
  if (format === 'xlsx' && values.journal)
    throw new UsageError(
      `--journal: a .xlsx workbook is written whole, so it cannot go on from a page; leave --journal out, or write ${out.replace(/\.xlsx$/i, '.csv')} or .jsonl to resume`,
    );
  // What the journal records as the file's format: CSV of another dialect is another file.
  const recordedFormat = format === 'csv' && dialect !== 'rfc4180' ? `csv (${dialect})` : format;
  const journalFile: NamedFile | undefined = values.journal ? { flag: '--journal', path: values.journal } : undefined;
  let stopper: Stopper | undefined;
  let file: FileHandle | undefined;
  let whole: WholeFile | undefined;
  let journal: JournalWriter | undefined;
  let lock: JournalLock | undefined;
  let report: ReportWriter | undefined;
  const client = createBaasClient({
    baseUrl: connection.baseUrl,
    // The library's own token source (the token held, or clientCredentials with its cache and refresh).
    token: credentials.token!,
    ...(credentials.fetch ? { fetch: credentials.fetch } : {}),
    ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
  });
  try {
    // Every file checked before any is written: distinct, no links, the report replaceable.
    await distinctFiles([
      outFile,
      ...(journalFile ? [journalFile] : []),
      ...(values.report ? [{ flag: '--report', path: values.report }] : []),
    ]);
    const existing = await writableFile(outFile);
    if (values.report) await ReportWriter.check(values.report);
    const place = await placeOf(outFile);
    let last: ExportJournalEntry | undefined;
    let hash: Hash = createHash('sha256');
    if (journalFile) {
      lock = await JournalLock.take(journalFile);
      const read = await readJournal(journalFile.path, 'export-keys', (entry) => {
        if (!isPageEntry(entry))
          throw new EntryProblem(
            'is not a page of this version of export-keys (page, keys, bytes, sha256, out, format)',
          );
        last = entry;
      });
      if (last) hash = await checkRecordedOutput(outFile, recordedFormat, last, journalFile, last.nextCursor === null);
      // Refused before the journal is written: a journal that records nothing is no claim on an existing file.
      else if (existing) throw new FileError(`--out ${out} exists already; ${NEW_OUTPUT}`);
      journal = await JournalWriter.open(journalFile.path, 'export-keys', read, { batchSize: 1, lock });
    }
    if (last?.nextCursor === null) {
      io.out(`Done before: ${plural(last.keys, 'key')} in ${out} (the journal says the last page is written)`);
      return 0;
    }
    if (last) {
      file = await openOwn(outFile);
      // Resuming: what follows the last journaled page was never journaled, so it goes (it is fetched again).
      await file.truncate(last.bytes);
    } else if (journalFile) file = await createNew(outFile, NEW_OUTPUT);
    else {
      whole = await WholeFile.create(outFile, undefined, NEW_OUTPUT);
      file = whole.handle;
    }
    let bytes = last?.bytes ?? 0;
    let keys = last?.keys ?? 0;
    let page = last?.page ?? 0;
    const write = async (text: string) => {
      await file!.write(text);
      hash.update(text);
      bytes += Buffer.byteLength(text);
    };
    if (!last && format === 'csv') await write(csvHeader(dialect));
    const workbook = format === 'xlsx' ? await KeyWorkbook.open(writerTo(file), KEY_COLUMNS, out) : undefined;
    report = values.report
      ? await ReportWriter.open(values.report, {
          command: 'export-keys',
          out,
          baseUrl: redactText(connection.baseUrl, credentials.secrets),
          credentials: credentials.kind,
          rate: rate ?? null,
          journal: values.journal ?? null,
        })
      : undefined;
    const started = performance.now();
    let requests = 0;
    client.on('request', () => {
      requests += 1;
    });
    let keysNow = 0;
    const progress = new Progress(io.progress, () => ({ done: keysNow, failed: 0, total: undefined }));
    const activeStopper = new Stopper(
      () => io.err('stopping after the page being fetched (Ctrl-C again to give it up)'),
      (signal) => {
        // Given up: the page in flight is not written; the journal already holds every page that was.
        progress.stop();
        void Promise.allSettled([journal?.close(), report?.discard(), whole?.discard()]).finally(() =>
          process.exit(EXIT_ON[signal]),
        );
      },
    );
    stopper = activeStopper;
    let complete = false;
    let fault: unknown;
    try {
      for await (const result of exportKeyPages(client, {
        ...(last?.nextCursor ? { after: last.nextCursor } : {}),
        limit,
        ...(rate !== undefined ? { rate } : {}),
        signal: activeStopper.soft.signal,
      })) {
        if (workbook) workbook.addRows(result.keys.map(keyValues));
        else await write(keyRows(result.keys, format as 'jsonl' | 'csv', dialect));
        if (journal) await file.datasync();
        keys += result.keys.length;
        keysNow += result.keys.length;
        page += 1;
        const entry: ExportJournalEntry = {
          page,
          keys,
          bytes,
          sha256: hash.copy().digest('hex'),
          out: place,
          format: recordedFormat,
          nextCursor: result.nextCursor ?? null,
        };
        journal?.append({ ...entry });
        await journal?.flush();
        report?.line({ page, keys: result.keys.length });
        if (entry.nextCursor === null) complete = true;
        if (activeStopper.stopping) break;
      }
      complete ||= !activeStopper.stopping;
      if (workbook && complete) await workbook.finish();
    } catch (error) {
      fault = error;
    } finally {
      progress.stop();
    }
    const elapsed = (performance.now() - started) / 1000;
    const summary = {
      complete,
      pages: page,
      keys,
      keysThisRun: keysNow,
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      requests,
      requestsPerSecond: elapsed > 0 ? Math.round((requests / elapsed) * 10) / 10 : 0,
      interrupted: activeStopper.stopping,
    };
    await report?.finish(summary);
    // Without a journal only a whole export is put in place: a rerun could not go on from part of one.
    if (whole && !complete) {
      await whole.discard();
      io.out(`Stopped: ${plural(keys, 'key')} fetched, none kept (without --journal, ${out} is written only whole)`);
    } else {
      await whole?.commit();
      io.out(
        `${complete ? 'Done' : 'Stopped'}: ${plural(keys, 'key')} in ${out} (${n(keysNow)} this run, ${plural(page, 'page')})`,
      );
    }
    io.out(`  elapsed   ${summary.elapsedSeconds} s`);
    io.out(`  requests  ${n(requests)} (${n(summary.requestsPerSecond)} per second, retries included)`);
    if (fault !== undefined) {
      // Credentials that failed are said as every command says them (src/verify/credentials.ts).
      const refusal = credentialFailure(fault);
      const said = refusal
        ? refusalMessage(credentials, refusal)
        : fault instanceof Error
          ? fault.message
          : String(fault);
      io.err(redactMessage(`export-keys: ${said}`, credentials.secrets));
      if (values.journal) io.err(`export-keys: run the same command again to go on from page ${page + 1}`);
      return refusal ? exitOfTrouble(troubleOf(refusal), 1) : 1;
    }
    if (activeStopper.signal && !complete) {
      // What to do next, last.
      io.out(
        values.journal
          ? `to go on: run the same command again (same --out and --journal); it goes on from page ${page + 1}`
          : 'to go on: run it again (it starts over); with --journal FILE a stopped export goes on where it stopped',
      );
      return EXIT_ON[activeStopper.signal];
    }
    return 0;
  } finally {
    stopper?.release();
    await whole?.discard();
    await report?.discard();
    if (!whole) await file?.close();
    await journal?.close();
    await lock?.release();
    await client.close();
    await credentials.close();
  }
}
