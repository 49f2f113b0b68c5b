// `export-keys`: every PIX key into a file, page after page. With a journal, each page is written
// and synced first, then journaled with the file's place, format, length and the SHA-256 of its
// content, and the next page's cursor; a rerun checks that the file is still the one the journal
// records (refusing, and changing nothing, when it is not), cuts it back to the last journaled length
// and goes on from that cursor, so every key is in the file exactly once however the run before ended.
// Without a journal the file is a whole-file write, renamed into place at the end. Every file is
// opened through ./files.ts.
import type { Hash } from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { createBaasClient } from '../../client/baas-client.js';
import { credentialFailure, exitOfTrouble, refusalMessage, troubleOf } from '../connection/credentials.js';
import { UsageError } from '../command.js';
import { n, plural } from '../../words.js';
import type { ExportKeysValues } from '../export-keys.js';
import {
  checkRecordedOutput,
  createNew,
  distinctFiles,
  FileError,
  fileProblem,
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
import { EXIT_ON } from '../connection/exit-codes.js';
import { Stopper } from './stop.js';
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
  let outLock: JournalLock | undefined;
  let report: ReportWriter | undefined;
  const client = createBaasClient({
    baseUrl: connection.baseUrl,
    // The library's own token source (the token held, or clientCredentials with its cache and refresh).
    token: credentials.token!,
    ...(credentials.fetch ? { fetch: credentials.fetch } : {}),
    ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
  });
  // The one holder of the run's secrets: the client's own, through which the report and every line are built.
  const secrets = credentials.secretsOf(client);
  try {
    // Every file checked before any is written: distinct, no links, the report replaceable.
    await distinctFiles([
      outFile,
      ...(journalFile ? [journalFile] : []),
      ...(values.report ? [{ flag: '--report', path: values.report }] : []),
    ]);
    const existing = await writableFile(outFile);
    const place = await placeOf(outFile);
    let last: ExportJournalEntry | undefined;
    let hash: Hash = createHash('sha256');
    let journalId: string | null = null;
    // A file that cannot be written (a full disk) or a lock whose lease was lost stops the walk at once.
    let trouble: FileError | undefined;
    let onTrouble: (error: FileError) => void = (error) => {
      trouble ??= error;
    };
    // The output is held from here until the run ends, journal or not: a second export to it (from
    // this machine, another container, another machine) is refused before it fetches anything.
    outLock = await JournalLock.take(outFile);
    if (journalFile) {
      lock = await JournalLock.take(journalFile);
      const read = await readJournal(journalFile.path, 'export-keys', (entry) => {
        if (!isPageEntry(entry))
          throw new EntryProblem(
            'is not a page of this version of export-keys (page, keys, bytes, sha256, out, format)',
          );
        last = entry;
      });
      if (last) {
        // One descriptor for the check and the writes that trust it (never the name again).
        file = await openOwn(outFile);
        hash = await checkRecordedOutput(file, outFile, recordedFormat, last, journalFile, last.nextCursor === null);
      }
      // Refused before the journal is written: a journal that records nothing is no claim on an existing file.
      else if (existing) throw new FileError(`--out ${out} exists already; ${NEW_OUTPUT}`);
      journalId = read.identity?.id ?? (read.started ? null : randomBytes(8).toString('hex'));
      journal = await JournalWriter.open(journalFile.path, 'export-keys', read, {
        batchSize: 1,
        lock,
        identity: { command: 'export-keys', ...(journalId ? { id: journalId } : {}) },
        onTrouble: (error) => onTrouble(error),
      });
    }
    if (values.report) await ReportWriter.check(values.report, journalId);
    if (last?.nextCursor === null) {
      io.out(`Done before: ${plural(last.keys, 'key')} in ${out} (the journal says the last page is written)`);
      return 0;
    }
    if (last) {
      // Resuming: what follows the last journaled page was never journaled, so it goes (it is fetched again).
      await file!.truncate(last.bytes);
    } else if (journalFile) file = await createNew(outFile, NEW_OUTPUT);
    else {
      whole = await WholeFile.create(outFile, undefined, NEW_OUTPUT);
      file = whole.handle;
    }
    let bytes = last?.bytes ?? 0;
    let keys = last?.keys ?? 0;
    let page = last?.page ?? 0;
    const write = async (text: string) => {
      try {
        await file!.write(text);
      } catch (error) {
        throw fileProblem(outFile, error);
      }
      hash.update(text);
      bytes += Buffer.byteLength(text);
    };
    if (!last && format === 'csv') await write(csvHeader(dialect));
    const workbook = format === 'xlsx' ? await KeyWorkbook.open(writerTo(file!), KEY_COLUMNS, out) : undefined;
    report = values.report
      ? await ReportWriter.open(values.report, journalId, (error) => onTrouble(error), {
          command: 'export-keys',
          out,
          baseUrl: secrets.text(connection.baseUrl),
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
    // A second Ctrl-C, or a lock whose lease was lost: the page in flight is not waited for, and not
    // written; the journal already holds every page that was. The run then ends as any other does.
    let giveUp: (why: 'given-up' | 'lost') => void = () => undefined;
    const givenUp = new Promise<'given-up' | 'lost'>((resolve) => {
      giveUp = resolve;
    });
    let lost: FileError | undefined = trouble;
    const onLost = (error: FileError) => {
      lost ??= error;
      giveUp('lost');
    };
    onTrouble = onLost;
    if (lost) giveUp('lost');
    if (lock) lock.onLost = onLost;
    outLock.onLost = onLost;
    const activeStopper = new Stopper(
      () => io.err('stopping after the page being fetched (Ctrl-C again to give it up)'),
      () => {
        io.err('giving up the page being fetched: it is not written; the pages written are kept');
        giveUp('given-up');
      },
      io.closed,
    );
    stopper = activeStopper;
    let complete = false;
    let fault: unknown;
    let interrupted = false;
    const pagesRun = exportKeyPages(client, {
      ...(last?.nextCursor ? { after: last.nextCursor } : {}),
      limit,
      ...(rate !== undefined ? { rate } : {}),
      signal: activeStopper.soft.signal,
    });
    const walk = pagesRun[Symbol.asyncIterator]();
    try {
      for (;;) {
        const pending = walk.next();
        // Settled later, when given up: never an unhandled rejection.
        pending.catch(() => undefined);
        const next = await Promise.race([pending, givenUp]);
        if (next === 'given-up' || next === 'lost') {
          interrupted = true;
          if (next === 'lost') fault = lost;
          break;
        }
        if (next.done) break;
        const result = next.value;
        if (workbook) workbook.addRows(result.keys.map(keyValues));
        else await write(keyRows(result.keys, format as 'jsonl' | 'csv', dialect));
        if (journal) await file!.datasync().catch((error: unknown) => Promise.reject(fileProblem(outFile, error)));
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
      complete ||= !activeStopper.stopping && !interrupted;
      if (workbook && complete) await workbook.finish();
    } catch (error) {
      fault = error;
      complete = false;
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
    // A report that cannot be finished (a full disk) is said after the summary, which is printed whatever happens.
    const reportFault = await report?.finish(summary).then(
      () => undefined,
      (error: unknown) => error,
    );
    fault ??= reportFault;
    // Without a journal only a whole export is put in place: a rerun could not go on from part of one.
    if (whole && !complete) {
      await whole.discard();
      io.out(`Stopped: ${plural(keys, 'key')} fetched, none kept (without --journal, ${out} is written only whole)`);
    } else {
      const kept = await whole?.commit().then(
        () => true,
        (error: unknown) => {
          fault ??= error;
          return false;
        },
      );
      if (kept === false) io.out(`Stopped: ${plural(keys, 'key')} fetched, none kept (${out} could not be written)`);
      else
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
      io.err(secrets.message(`export-keys: ${said}`));
      if (values.journal) io.err(`export-keys: run the same command again to go on from page ${page + 1}`);
      // A file that could not be written is a file error (exit 2), found before or during the run alike.
      return refusal ? exitOfTrouble(troubleOf(refusal), 1) : fault instanceof FileError ? 2 : 1;
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
    await outLock?.release();
    await client.close();
    await credentials.close();
  }
}
