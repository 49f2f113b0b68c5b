// `export-keys`: every PIX key into a file, page after page. With a journal, each page is written
// and synced first, then journaled with the file's place, format, length and the SHA-256 of its
// content, and the next page's cursor; a rerun checks that the file is still the one the journal
// records (refusing, and changing nothing, when it is not), cuts it back to the last journaled length
// and goes on from that cursor, so every key is in the file exactly once however the run before ended.
// Without a journal the file is a whole-file write, renamed into place at the end. Every file is
// opened through ./files.ts. One run is one `ExportKeysCliRun`: its state in named fields, and what it
// holds in one DisposeList that runs once, in reverse, however the run ends (done, an error, Ctrl-C,
// a closed pipe, a lost lock).
import type { Hash } from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createBaasClient } from '../../client/baas-client.js';
import { credentialFailure, exitOfTrouble, refusalMessage, troubleOf } from '../connection/credentials.js';
import { Secrets } from '../../redact.js';
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
  type OpenFile,
  type OutputRecord,
  openOwn,
  placeOf,
  WholeFile,
  writableFile,
} from '../../files.js';
import { EntryProblem, type JournalEntry, JournalWriter, readJournal } from './journal.js';
import { limitFrom, MAX_LIMIT } from '../../verify/options.js';
import { csvHeader, KEY_COLUMNS, keyRows, keyValues, type OutputFormat, outputFormatOf } from './key-rows.js';
import { CSV_DIALECTS, type CsvDialect, dialectNamed } from './formats/csv-write.js';
import { KeyWorkbook } from './formats/xlsx-write.js';
import { type Connection, connectionFrom, INSECURE_HTTP_WARNING, paceFrom } from './options.js';
import { Progress } from './progress.js';
import { ReportWriter } from './report.js';
import { exportKeyPages } from '../../batch/export-keys.js';
import { EXIT_ON } from '../connection/exit-codes.js';
import { Stopper } from './stop.js';
import { DisposeList } from './dispose-list.js';
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
const writerTo = (handle: OpenFile): Writable =>
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

export function runExportKeys(values: ExportKeysValues, io: RunIo): Promise<number> {
  return new ExportKeysCliRun(values, io).run();
}

/** What --out is: its format, the CSV dialect, and the format a journal records (another dialect is another file). */
interface OutputShape {
  format: OutputFormat;
  dialect: CsvDialect;
  recorded: string;
}

/** Where the file stands: after the last page journaled (or written, without a journal). */
interface Position {
  page: number;
  keys: number;
  bytes: number;
}

/** Why the walk ended before its last page without a Ctrl-C: given up (a second one), or a file that failed. */
type Interruption = 'given-up' | 'lost';

/**
 * One run of export-keys. The flags that need no file are read when it is made; `run()` checks the
 * files, takes the locks, reads the journal, walks the pages, and always ends through `disposals`.
 * A signal never ends the process: it ends the walk (`stopper`, `interrupt`).
 */
class ExportKeysCliRun {
  private readonly out: string;
  private readonly outFile: NamedFile;
  private readonly journalFile: NamedFile | undefined;
  private readonly limit: number;
  private readonly rate: number | undefined;
  private readonly connection: Connection;
  /** Everything the run holds (credentials, client, locks, files, journal, report, signal handlers, progress line). */
  private readonly disposals = new DisposeList();

  // What a journal says, and the file as it stands.
  /** The last page the journal records; undefined for a new export. */
  private last: ExportJournalEntry | undefined;
  /** The SHA-256 of the file's content so far, which each journal line records. */
  private contentHash: Hash = createHash('sha256');
  private journalId: string | null = null;
  private journal: JournalWriter | undefined;
  /** The descriptor every write goes through (checked against the journal when resuming). */
  private file: OpenFile | undefined;
  /** Without a journal: the temporary file put in place only when the export is whole. */
  private whole: WholeFile | undefined;
  private position: Position = { page: 0, keys: 0, bytes: 0 };
  private keysThisRun = 0;
  private requests = 0;

  // How the walk ends early.
  /** The first file that could not be written (a full disk) or lock lost: the walk stops at once. */
  private lost: FileError | undefined;
  /** Resolves when the walk must end without waiting for the page in flight. */
  private readonly interrupted: Promise<Interruption>;
  private interrupt: (why: Interruption) => void = () => undefined;

  constructor(
    private readonly values: ExportKeysValues,
    private readonly io: RunIo,
  ) {
    if (!values.out) throw new UsageError('--out FILE is required');
    this.out = values.out;
    this.outFile = { flag: '--out', path: this.out };
    this.journalFile = values.journal ? { flag: '--journal', path: values.journal } : undefined;
    this.limit = limitFrom(values.limit, DEFAULT_LIMIT);
    this.rate = paceFrom(values).rate;
    this.connection = connectionFrom(values, io.env);
    const { credentials } = this.connection;
    this.disposals.add(() => credentials.close());
    if (this.connection.insecureHttp) io.err(INSECURE_HTTP_WARNING);
    this.interrupted = new Promise<Interruption>((resolve) => {
      this.interrupt = resolve;
    });
  }

  /** A write that failed, or a lease lost: the page in flight is not waited for, and not written. */
  /** The one holder of the run's secrets: the client's own, through which the report and every line are built. */
  private runSecrets: Secrets = Secrets.none;

  private readonly troubled = (error: FileError): void => {
    this.lost ??= error;
    this.interrupt('lost');
  };

  run(): Promise<number> {
    return this.disposals.disposeAfter(async () => {
      const shape = await this.outputShape();
      const { connection, disposals } = this;
      const client = createBaasClient({
        baseUrl: connection.baseUrl,
        // The library's own token source (the token held, or clientCredentials with its cache and refresh).
        token: connection.credentials.token!,
        // A caller in process (a test) may give its own fetch, as docs-serve takes it; a certificate's wins.
        ...(connection.credentials.fetch
          ? { fetch: connection.credentials.fetch }
          : this.io.fetch
            ? { fetch: this.io.fetch }
            : {}),
        ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
      });
      this.runSecrets = connection.credentials.secretsOf(client);
      disposals.add(() => client.close());
      const place = await this.prepare(shape);
      if (this.last?.nextCursor === null) {
        this.io.out(
          `Done before: ${plural(this.last.keys, 'key')} in ${this.out} (the journal says the last page is written)`,
        );
        return 0;
      }
      await this.openOutput(shape);
      return await this.walk(client, shape, place);
    });
  }

  /** --out's format and dialect, checked before any file is touched. */
  private async outputShape(): Promise<OutputShape> {
    const { out, values } = this;
    // A folder given as --out is said as such, before its name's ending is.
    await writableFile(this.outFile);
    const format = outputFormatOf(out);
    const dialect = dialectFrom(values['csv-dialect'], format);
    // A workbook is a zip archive: it cannot be cut back to a page and continued.
    if (format === 'xlsx' && values.journal)
      throw new UsageError(
        `--journal: a .xlsx workbook is written whole, so it cannot go on from a page; leave --journal out, or write ${out.replace(/\.xlsx$/i, '.csv')} or .jsonl to resume`,
      );
    return { format, dialect, recorded: format === 'csv' && dialect !== 'rfc4180' ? `csv (${dialect})` : format };
  }

  /**
   * Every file checked before any is written (distinct, no links, the report replaceable), the
   * locks taken, the journal read and the file checked against it. Returns --out's place.
   */
  private async prepare(shape: OutputShape): Promise<string> {
    const { outFile, journalFile, values, disposals } = this;
    await distinctFiles([
      outFile,
      ...(journalFile ? [journalFile] : []),
      ...(values.report ? [{ flag: '--report', path: values.report }] : []),
    ]);
    const existing = await writableFile(outFile);
    const place = await placeOf(outFile);
    // The output is held from here until the run ends, journal or not: a second export to it (from
    // this machine, another container, another machine) is refused before it fetches anything.
    const outLock = await JournalLock.take(outFile);
    disposals.add(() => outLock.release());
    outLock.onLost = this.troubled;
    if (journalFile) {
      const lock = await JournalLock.take(journalFile);
      disposals.add(() => lock.release());
      lock.onLost = this.troubled;
      const read = await readJournal(journalFile.path, 'export-keys', (entry) => {
        if (!isPageEntry(entry))
          throw new EntryProblem(
            'is not a page of this version of export-keys (page, keys, bytes, sha256, out, format)',
          );
        this.last = entry;
      });
      const last = this.last;
      if (last) {
        // One descriptor for the check and the writes that trust it (never the name again).
        const file = await openOwn(outFile);
        this.file = file;
        disposals.add(() => file.close());
        this.contentHash = await checkRecordedOutput(
          file,
          outFile,
          shape.recorded,
          last,
          journalFile,
          last.nextCursor === null,
        );
      }
      // Refused before the journal is written: a journal that records nothing is no claim on an existing file.
      else if (existing) throw new FileError(`--out ${this.out} exists already; ${NEW_OUTPUT}`);
      this.journalId = read.identity?.id ?? (read.started ? null : randomBytes(8).toString('hex'));
      const journal = await JournalWriter.open(journalFile.path, 'export-keys', read, {
        batchSize: 1,
        lock,
        identity: { command: 'export-keys', ...(this.journalId ? { id: this.journalId } : {}) },
        onTrouble: this.troubled,
      });
      this.journal = journal;
      disposals.add(() => journal.close());
    }
    if (values.report) await ReportWriter.check(values.report, this.journalId);
    return place;
  }

  /** The file the pages go to: cut back to the last journaled page, new, or a whole file's temporary. */
  private async openOutput(shape: OutputShape): Promise<void> {
    const { last, outFile, disposals } = this;
    if (last) {
      // Resuming: what follows the last journaled page was never journaled, so it goes (it is fetched again).
      await this.file!.truncate(last.bytes);
      this.position = { page: last.page, keys: last.keys, bytes: last.bytes };
    } else if (this.journalFile) {
      const file = await createNew(outFile, NEW_OUTPUT);
      this.file = file;
      disposals.add(() => file.close());
    } else {
      const whole = await WholeFile.create(outFile, undefined, NEW_OUTPUT);
      this.whole = whole;
      this.file = whole.handle;
      // Without a journal only a whole export is put in place: dropped on every other way out.
      disposals.add(() => whole.discard());
    }
    if (!last && shape.format === 'csv') await this.write(csvHeader(shape.dialect));
  }

  private async write(text: string): Promise<void> {
    try {
      await this.file!.write(text);
    } catch (error) {
      throw fileProblem(this.outFile, error);
    }
    this.contentHash.update(text);
    this.position.bytes += Buffer.byteLength(text);
  }

  private async walk(client: ReturnType<typeof createBaasClient>, shape: OutputShape, place: string): Promise<number> {
    const { io, values, connection, disposals, journal, last } = this;
    const workbook =
      shape.format === 'xlsx' ? await KeyWorkbook.open(writerTo(this.file!), KEY_COLUMNS, this.out) : undefined;
    const report = values.report
      ? await ReportWriter.open(values.report, this.journalId, this.troubled, {
          command: 'export-keys',
          out: this.out,
          baseUrl: this.runSecrets.text(connection.baseUrl),
          credentials: connection.credentials.kind,
          rate: this.rate ?? null,
          journal: values.journal ?? null,
        })
      : undefined;
    // A report finished is in place; one not finished is dropped.
    if (report) disposals.add(() => report.discard());
    const started = performance.now();
    client.on('request', () => {
      this.requests += 1;
    });
    const progress = new Progress(io.progress, () => ({ done: this.keysThisRun, failed: 0, total: undefined }));
    const stopProgress = disposals.add(() => progress.stop());
    // A first Ctrl-C stops after the page being fetched; a second gives it up: it is not written, the
    // journal already holds every page that was. The run then ends as any other does.
    const stopper = new Stopper(
      () => io.err('stopping after the page being fetched (Ctrl-C again to give it up)'),
      () => {
        io.err('giving up the page being fetched: it is not written; the pages written are kept');
        this.interrupt('given-up');
      },
      io.closed,
    );
    disposals.add(() => stopper.release());
    let complete = false;
    let fault: unknown;
    let interrupted = false;
    const pages = exportKeyPages(client, {
      ...(last?.nextCursor ? { after: last.nextCursor } : {}),
      limit: this.limit,
      ...(this.rate !== undefined ? { rate: this.rate } : {}),
      signal: stopper.soft.signal,
    })[Symbol.asyncIterator]();
    const position = this.position;
    try {
      for (;;) {
        const pending = pages.next();
        // Settled later, when given up: never an unhandled rejection.
        pending.catch(() => undefined);
        const next = await Promise.race([pending, this.interrupted]);
        if (next === 'given-up' || next === 'lost') {
          interrupted = true;
          if (next === 'lost') fault = this.lost;
          break;
        }
        if (next.done) break;
        const result = next.value;
        if (workbook) workbook.addRows(result.keys.map(keyValues));
        else await this.write(keyRows(result.keys, shape.format as 'jsonl' | 'csv', shape.dialect));
        if (journal)
          await this.file!.datasync().catch((error: unknown) => Promise.reject(fileProblem(this.outFile, error)));
        position.keys += result.keys.length;
        this.keysThisRun += result.keys.length;
        position.page += 1;
        const entry: ExportJournalEntry = {
          ...position,
          sha256: this.contentHash.copy().digest('hex'),
          out: place,
          format: shape.recorded,
          nextCursor: result.nextCursor ?? null,
        };
        journal?.append({ ...entry });
        await journal?.flush();
        report?.line({ page: position.page, keys: result.keys.length });
        if (entry.nextCursor === null) complete = true;
        if (stopper.stopping) break;
      }
      complete ||= !stopper.stopping && !interrupted;
      if (workbook && complete) await workbook.finish();
    } catch (error) {
      fault = error;
      complete = false;
    } finally {
      await stopProgress();
    }
    const elapsed = (performance.now() - started) / 1000;
    const summary = {
      complete,
      pages: position.page,
      keys: position.keys,
      keysThisRun: this.keysThisRun,
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      requests: this.requests,
      requestsPerSecond: elapsed > 0 ? Math.round((this.requests / elapsed) * 10) / 10 : 0,
      interrupted: stopper.stopping,
    };
    // A report that cannot be finished (a full disk) is said after the summary, which is printed whatever happens.
    const reportFault = await report?.finish(summary).then(
      () => undefined,
      (error: unknown) => error,
    );
    fault ??= reportFault;
    fault = await this.keep(complete, fault);
    io.out(`  elapsed   ${summary.elapsedSeconds} s`);
    // A letter between the two counts: eleven digits joined by anything else read as a CPF (summary.ts).
    io.out(`  requests  ${n(this.requests)}, retries included, at ${n(summary.requestsPerSecond)} per second`);
    if (fault !== undefined) return this.failed(fault);
    if (stopper.signal && !complete) {
      // What to do next, last.
      io.out(
        values.journal
          ? `to go on: run the same command again (same --out and --journal); it goes on from page ${position.page + 1}`
          : 'to go on: run it again (it starts over); with --journal FILE a stopped export goes on where it stopped',
      );
      return EXIT_ON[stopper.signal];
    }
    return 0;
  }

  /** Puts a whole file in place when the export is complete (drops it when not), and says what is kept. */
  private async keep(complete: boolean, fault: unknown): Promise<unknown> {
    const { io, out, whole } = this;
    const { keys, page } = this.position;
    // Without a journal only a whole export is put in place: a rerun could not go on from part of one.
    if (whole && !complete) {
      await whole.discard();
      io.out(`Stopped: ${plural(keys, 'key')} fetched, none kept (without --journal, ${out} is written only whole)`);
      return fault;
    }
    let failure = fault;
    const kept = await whole?.commit().then(
      () => true,
      (error: unknown) => {
        failure ??= error;
        return false;
      },
    );
    if (kept === false) io.out(`Stopped: ${plural(keys, 'key')} fetched, none kept (${out} could not be written)`);
    else
      io.out(
        `${complete ? 'Done' : 'Stopped'}: ${plural(keys, 'key')} in ${out} (${n(this.keysThisRun)} this run, ${plural(page, 'page')})`,
      );
    return failure;
  }

  /** Says why the export failed and how to go on; the exit status of that failure. */
  private failed(fault: unknown): number {
    const { io, values } = this;
    const { credentials } = this.connection;
    // Credentials that failed are said as every command says them (src/cli/connection/credentials.ts).
    const refusal = credentialFailure(fault);
    const said = refusal
      ? refusalMessage(credentials, refusal)
      : fault instanceof Error
        ? fault.message
        : String(fault);
    io.err(this.runSecrets.message(`export-keys: ${said}`));
    if (values.journal) io.err(`export-keys: run the same command again to go on from page ${this.position.page + 1}`);
    // A file that could not be written is a file error (exit 2), found before or during the run alike.
    return refusal ? exitOfTrouble(troubleOf(refusal), 1) : fault instanceof FileError ? 2 : 1;
  }
}
