// `update-many`: validate every line of the input first, then send the valid ones (skipping those
// the journal says are done), journal and report each outcome, show progress, and stop cleanly.
// One run is one `UpdateManyCliRun`: its state in named fields, and what it holds in one DisposeList
// that runs once, in reverse, however the run ends (done, an error, Ctrl-C, a closed pipe).
import { randomBytes } from 'node:crypto';
import { n, plural } from '../../words.js';
import { stat } from 'node:fs/promises';
import { createBaasClient } from '../../client/baas-client.js';
import { redactMessage, Secrets } from '../../redact.js';
import {
  type CredentialRefusal,
  credentialFailure,
  exitOfTrouble,
  refusalMessage,
  troubleOf,
} from '../connection/credentials.js';
import { UsageError, type CommandContext } from '../command.js';
import type { UpdateManyValues } from '../update-many.js';
import type { UpdateItem, UpdateManyResult } from '../../batch/results.js';
import { formatOf, type InputLine, type LineIssue, readInput, WHOLE_LINE } from './input.js';
import { FailedLines, failureText } from './failed-lines.js';
import { NoAnswerStreak } from './no-answer.js';
import {
  digestOf,
  distinctFiles,
  FileError,
  JournalLock,
  type NamedFile,
  placeOf,
  readableProblem,
} from '../../files.js';
import { type InputIdentity, type JournalRead, JournalWriter, readJournal } from './journal.js';
import { shownPath } from '../output.js';
import { type Connection, connectionFrom, INSECURE_HTTP_WARNING, type Pace, paceFrom } from './options.js';
import { Progress, type ProgressOutput } from './progress.js';
import { ReportWriter } from './report.js';
import { updateMany } from '../../batch/update-many.js';
import { EXIT_ON } from '../connection/exit-codes.js';
import { type StopSignal, Stopper } from './stop.js';
import { DisposeList } from './dispose-list.js';
import { failureOf, type LineResult, type Summary, summaryLines, Tally } from './summary.js';
import { DoneLines } from './update-journal.js';
import { encodingNamed, encodingNames, type InputEncoding } from './formats/encoding.js';

export interface RunIo extends CommandContext {
  env: Readonly<Record<string, string | undefined>>;
  /** Where progress goes (standard error): redrawn in place when it is a terminal. */
  progress: ProgressOutput;
}

/** `body.address.city: must be at most 60 characters`, `is not valid JSON` (no value, ever). */
const issueText = (issue: LineIssue): string => `${issue.field === WHOLE_LINE ? '' : `${issue.field}: `}${issue.rule}`;

/** `line 7: body.address.city: must be at most 60 characters`, `line 9: is not valid JSON` (no value, ever). */
export const badLineText = (line: InputLine): string[] =>
  (line.issues ?? []).map((issue) => redactMessage(`line ${line.line}: ${issueText(issue)}`));

/** Problems of invalid lines shown on the terminal at most; the rest are counted (and all are in --report). */
export const SHOWN_PROBLEMS = 20;

/** What a journal records of its input: its place, size and SHA-256. */
async function identityOf(file: NamedFile): Promise<InputIdentity> {
  const size = (await stat(file.path)).size;
  return { path: await placeOf(file), size, sha256: (await digestOf(file, size)).hex };
}

/**
 * A journal goes with the input it was written for: another file is refused (exit 2), naming both;
 * the same file changed since (lines fixed) goes on, said once: each line's own hash tells a line
 * changed from one done.
 */
function checkSameInput(recorded: InputIdentity, now: InputIdentity, journal: string, io: RunIo): void {
  if (recorded.path !== now.path)
    throw new UsageError(
      `--journal ${shownPath(journal)} is the journal of --input ${shownPath(recorded.path)}, not of ${shownPath(now.path)}; give that input, or a new --journal for this one`,
    );
  if (recorded.size !== now.size || recorded.sha256 !== now.sha256)
    io.err(
      `update-many: --input ${shownPath(now.path)} changed since the journal's first run; the lines done and unchanged are skipped, the lines changed are sent`,
    );
}

/** Why an input that yielded no line holds no update, and what to give instead. */
async function noUpdates(input: string): Promise<string> {
  if ((await stat(input)).size === 0)
    return `--input ${input} is empty: there is nothing to update; give the file that holds the updates`;
  return formatOf(input) !== 'jsonl'
    ? `--input ${input} has a header row and no records: there is nothing to update; add a row per customer below the header`
    : `--input ${input} has only blank lines: there is nothing to update; give one {"account","documentNumber","body"} a line`;
}

/** --encoding, checked: a name it knows, and a CSV file to apply to. */
function encodingFrom(value: string | undefined, input: string): InputEncoding {
  if (value === undefined) return 'utf-8';
  const encoding = encodingNamed(value);
  if (encoding === undefined)
    throw new UsageError(
      `--encoding must be one of ${encodingNames()} (latin1 is read as windows-1252), got "${value}"`,
    );
  if (formatOf(input) !== 'csv' && encoding !== 'utf-8')
    throw new UsageError(
      `--encoding is for a CSV file: ${formatOf(input) === 'xlsx' ? 'a workbook holds its own text' : 'JSON Lines are UTF-8 (RFC 8259)'}; leave it out`,
    );
  return encoding;
}

export function runUpdateMany(values: UpdateManyValues, io: RunIo): Promise<number> {
  return new UpdateManyCliRun(values, io).run();
}

/** What a run knows once the input is read through: what is valid, and what is left to send. */
interface Checked {
  good: number;
  bad: number;
  alreadyDone: number;
}

/**
 * One run of update-many. Its flags are read when it is made (a misspelt flag is said at once, not
 * after a million lines); `run()` checks the files, validates every line, then sends, and always
 * ends through `disposals`. A signal never ends the process: it ends the run (`stop`, `giveUp`).
 */
class UpdateManyCliRun {
  private readonly input: string;
  private readonly dryRun: boolean;
  private readonly encoding: InputEncoding;
  private readonly pace: Pace;
  /** Undefined with --dry-run, which sends nothing. */
  private readonly connection: Connection | undefined;
  /** Everything the run holds (credentials, lock, journal, report, client, signal handlers, progress line). */
  private readonly disposals = new DisposeList();

  // What the journal says, read before anything is sent.
  private readonly done = new DoneLines();
  private lock: JournalLock | undefined;
  private journalRead: JournalRead | undefined;
  private journalId: string | null = null;

  // Sending.
  private journal: JournalWriter | undefined;
  private report: ReportWriter | undefined;
  private stopper: Stopper | undefined;
  private batch: ReturnType<typeof updateMany> | undefined;
  private readonly tally = new Tally();
  /** The lines not done, listed on the terminal after the summary (the report lists them all). */
  private readonly notDone = new FailedLines(() => this.secrets());
  /** A service that answers nothing fails every line alike: the run stops after a streak of them. */
  private readonly noAnswer = new NoAnswerStreak();
  /** The item each input line became, to journal its outcome under its line number and hash. */
  private readonly lines = new WeakMap<UpdateItem, { line: number; hash: string }>();

  // Why no new line is taken. Each is set once; `exitCode` reads them in this order.
  /** A file that cannot be written (the journal's disk full, a lock whose lease was lost). */
  private fileTrouble: FileError | undefined;
  /** Credentials that failed (refused, or no token) fail every line alike: the run stops at the first. */
  private credentialsFailed: CredentialRefusal | undefined;
  /** The no-answer streak was reached. */
  private unanswered = false;
  /** A first Ctrl-C, a closed output, or file trouble: no new line is read. */
  private stopped = false;
  /** Aborted on file trouble: nothing new is sent; the outcomes in flight go into the journal's reserve. */
  private readonly halt = new AbortController();
  /** Aborted when the service answers nothing: the lines waiting to retry end with their last failure. */
  private readonly unansweredLines = new AbortController();

  constructor(
    private readonly values: UpdateManyValues,
    private readonly io: RunIo,
  ) {
    if (!values.input) throw new UsageError('--input FILE is required');
    this.input = values.input;
    this.dryRun = values['dry-run'] === true;
    this.encoding = encodingFrom(values.encoding, this.input);
    this.pace = paceFrom(values);
    this.connection = this.dryRun ? undefined : connectionFrom(values, io.env);
    const credentials = this.connection?.credentials;
    if (credentials) this.disposals.add(() => credentials.close());
  }

  /**
   * The one holder of the run's secrets: the client's own (every token its source issued that is still
   * alive), through which every line, the report and the failure list are built; none before it exists.
   */
  private runSecrets: Secrets = Secrets.none;

  private secrets(): Secrets {
    return this.runSecrets;
  }

  run(): Promise<number> {
    return this.disposals.disposeAfter(async () => {
      const inputIdentity = await this.prepare();
      const checked = await this.validate();
      if (this.dryRun) {
        const { good, bad } = checked;
        this.io.out(`${plural(good + bad, 'line')}: ${n(good)} valid, ${n(bad)} invalid; nothing sent (--dry-run)`);
        return bad > 0 ? 1 : 0;
      }
      return await this.send(this.connection!, inputIdentity, checked.good - checked.alreadyDone);
    });
  }

  /** Every file checked, the journal locked and read, before any line is: refusals change nothing. */
  private async prepare(): Promise<InputIdentity> {
    const { input, values } = this;
    const problem = await readableProblem(
      input,
      'the file that holds the updates (JSONL, CSV with a .csv name, or a .xlsx workbook)',
    );
    if (problem) throw new UsageError(`--input ${input} ${problem}`);
    const journalFile: NamedFile | undefined = values.journal ? { flag: '--journal', path: values.journal } : undefined;
    // Input, journal and report are different files (a report over the input would replace it), and
    // the report is one this command may write, all before anything is read or sent.
    await distinctFiles([
      { flag: '--input', path: input },
      ...(journalFile ? [journalFile] : []),
      ...(values.report ? [{ flag: '--report', path: values.report }] : []),
    ]);
    // Held from before the journal is read until it is closed: a second run on it is refused.
    if (journalFile) {
      const lock = await JournalLock.take(journalFile);
      this.lock = lock;
      this.disposals.add(() => lock.release());
    }
    this.journalRead = values.journal
      ? await readJournal(values.journal, 'update-many', (e) => this.done.apply(e))
      : undefined;
    // A journal belongs to one input: what it records of it, and the input given now.
    const inputIdentity = await identityOf({ flag: '--input', path: input });
    const recorded = this.journalRead?.identity?.input;
    if (recorded) checkSameInput(recorded, inputIdentity, values.journal!, this.io);
    // The report this journal's runs write (a new journal's id is made now; a version 1 journal has none).
    const read = this.journalRead;
    this.journalId = read ? (read.identity?.id ?? (read.started ? null : randomBytes(8).toString('hex'))) : null;
    if (values.report && !this.dryRun) await ReportWriter.check(values.report, this.journalId);
    return inputIdentity;
  }

  /** Validation first: every line, before anything is sent. A file with no update in it is refused. */
  private async validate(): Promise<Checked> {
    const { io, values } = this;
    const checked: Checked = { good: 0, bad: 0, alreadyDone: 0 };
    const say = this.dryRun ? io.out : io.err;
    // The terminal shows the first SHOWN_PROBLEMS problems, then how many more (the report has them all).
    let problems = 0;
    for await (const line of readInput(this.input, { encoding: this.encoding })) {
      if (line.issues) {
        checked.bad += 1;
        for (const text of badLineText(line)) {
          problems += 1;
          if (problems <= SHOWN_PROBLEMS) say(text);
        }
        // Back-pressure: a slow terminal or pipe holds the reading, never memory.
        await io.drained?.();
      } else {
        checked.good += 1;
        if (this.done.state(line.line, line.hash!) === 'done') checked.alreadyDone += 1;
      }
    }
    // A file with no update in it is a mistake (the wrong file, an export that wrote nothing): said
    // before anything is sent, rather than a run that does nothing and succeeds.
    if (checked.good + checked.bad === 0) throw new UsageError(await noUpdates(this.input));
    if (problems > SHOWN_PROBLEMS)
      say(
        `… and ${plural(problems - SHOWN_PROBLEMS, 'more problem')}; ${values.report && !this.dryRun ? `see ${shownPath(values.report)}` : 'run with --report FILE to list them all'}`,
      );
    return checked;
  }

  /** Stops the run at once on a file that cannot be written: no new line is sent. */
  private readonly troubled = (error: FileError): void => {
    this.fileTrouble ??= error;
    this.stopped = true;
    this.halt.abort(error);
  };

  /** A first Ctrl-C or SIGTERM, or the output closed: no new lines; the requests in flight finish. */
  private stop(): void {
    this.stopped = true;
    this.io.err('stopping: no new lines; the requests in flight finish (Ctrl-C again to give them up)');
  }

  /**
   * A second Ctrl-C: what is in flight is aborted and not journaled (a rerun sends it); what is done
   * is kept. The run then ends as any other: journal closed, summary, how to go on.
   */
  private giveUp(): void {
    this.io.err('giving up the requests in flight: their lines are not recorded, so a rerun sends them');
    // Counted before the abort: the lines the summary says were given up, not recorded.
    this.tally.givenUp = this.batch?.progress().inFlight ?? 0;
    void this.batch?.return();
  }

  private async send(connection: Connection, inputIdentity: InputIdentity, toSend: number): Promise<number> {
    const { io, values, lock, disposals } = this;
    const { credentials } = connection;
    if (connection.insecureHttp) io.err(INSECURE_HTTP_WARNING);
    if (lock) lock.onLost = this.troubled;
    const journal =
      values.journal && this.journalRead
        ? await JournalWriter.open(values.journal, 'update-many', this.journalRead, {
            ...(lock ? { lock } : {}),
            identity: {
              command: 'update-many',
              input: inputIdentity,
              ...(this.journalId ? { id: this.journalId } : {}),
            },
            onTrouble: this.troubled,
          })
        : undefined;
    this.journal = journal;
    // Closed before the summary is printed (its trouble said there); on any other way out, here.
    const closeJournal = journal ? disposals.add(() => journal.close()) : async () => undefined;
    const client = createBaasClient({
      baseUrl: connection.baseUrl,
      // The library's own token source (the token held, or clientCredentials with its cache and refresh).
      token: credentials.token!,
      // A caller in process (a test) may give its own fetch, as docs-serve takes it; a certificate's wins.
      ...(credentials.fetch ? { fetch: credentials.fetch } : this.io.fetch ? { fetch: this.io.fetch } : {}),
      ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
    });
    const closeClient = disposals.add(() => client.close());
    this.runSecrets = credentials.secretsOf(client);
    const report = values.report
      ? await ReportWriter.open(values.report, this.journalId, this.troubled, {
          command: 'update-many',
          input: this.input,
          baseUrl: this.runSecrets.text(connection.baseUrl),
          credentials: credentials.kind,
          concurrency: this.pace.concurrency,
          rate: this.pace.rate ?? null,
          journal: values.journal ?? null,
        })
      : undefined;
    this.report = report;
    // A report finished is in place; one not finished (a run that failed before its summary) is dropped.
    if (report) disposals.add(() => report.discard());
    const stopper = new Stopper(
      () => this.stop(),
      () => this.giveUp(),
      io.closed,
    );
    this.stopper = stopper;
    const releaseSignals = disposals.add(() => stopper.release());
    const batch = updateMany(client, this.items(), {
      concurrency: this.pace.concurrency,
      ...(this.pace.rate !== undefined ? { rate: this.pace.rate } : {}),
      signal: AbortSignal.any([stopper.soft.signal, this.unansweredLines.signal, this.halt.signal]),
    });
    this.batch = batch;
    const progress = new Progress(io.progress, () => {
      const counts = batch.progress();
      return { done: counts.done, failed: counts.failed, total: toSend };
    });
    const stopProgress = disposals.add(() => progress.stop());

    let fault: unknown;
    try {
      for await (const result of batch) this.outcome(result);
    } catch (error) {
      fault = error;
    } finally {
      await stopProgress();
      await releaseSignals();
      await closeClient();
    }
    this.tally.requests = batch.progress().requests;
    const summary = await this.finish(stopper.stopping || this.fileTrouble !== undefined, closeJournal);
    return this.exitCode(connection, fault, summary);
  }

  /** The lines to send, read again: invalid ones and those the journal says are done are recorded, not sent. */
  private async *items(): AsyncGenerator<UpdateItem> {
    for await (const line of readInput(this.input, { encoding: this.encoding })) {
      if (this.stopped || this.credentialsFailed || this.unanswered) return;
      await this.io.drained?.();
      if (line.issues) {
        this.record({ line: line.line, outcome: 'invalid', issues: line.issues });
        this.notDone.add(line.line, `invalid: ${line.issues.map(issueText).join('; ')}`);
        continue;
      }
      if (this.done.state(line.line, line.hash!) === 'done') {
        this.record({ line: line.line, outcome: 'skipped' });
        continue;
      }
      this.lines.set(line.item!, { line: line.line, hash: line.hash! });
      yield line.item!;
    }
  }

  /** One sent line's outcome: recorded, and what it says of the credentials and the service. */
  private outcome(result: UpdateManyResult): void {
    const meta = this.lines.get(result.item)!;
    if (result.ok) {
      this.record({ line: meta.line, outcome: 'ok' }, meta.hash);
      this.noAnswer.add(undefined);
      return;
    }
    this.record({ line: meta.line, outcome: 'failed', ...failureOf(result.error) }, meta.hash);
    this.notDone.add(meta.line, failureText(result.error, this.secrets()));
    this.credentialsFailed ??= credentialFailure(result.error);
    if (this.noAnswer.add(result.error) && !this.unanswered) {
      this.unanswered = true;
      this.unansweredLines.abort();
    }
  }

  private record(result: LineResult, hash?: string): void {
    this.tally.add(result);
    // Issues name fields as the input names them, and a CSV header can hold anything.
    this.report?.line(result.issues ? this.secrets().json(result) : result);
    if (result.outcome === 'skipped') return;
    this.journal?.append({
      line: result.line,
      outcome: result.outcome,
      ...(hash ? { hash } : {}),
      ...(result.status !== undefined ? { status: result.status } : {}),
      ...(result.kind ? { kind: result.kind } : {}),
    });
  }

  /** Journal closed, report finished, summary printed and what to do said: whatever fails here (a full disk). */
  private async finish(interrupted: boolean, closeJournal: () => Promise<void>): Promise<Summary> {
    const { io, values, journal, report } = this;
    const journalFault = await closeJournal().then(
      () => undefined,
      (error: unknown) => error,
    );
    if (journalFault instanceof FileError) this.fileTrouble ??= journalFault;
    this.tally.interrupted = interrupted;
    const summary = this.tally.summary();
    const reportFault = await report?.finish(summary).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (reportFault instanceof FileError) this.fileTrouble ??= reportFault;
    const { fileTrouble } = this;
    for (const line of summaryLines(summary)) io.out(line);
    // Credentials that failed failed every line alike: their one message says it all.
    if (!this.credentialsFailed) for (const line of this.notDone.lines(values.report)) io.err(line);
    if (values.journal) io.out(`journal: ${shownPath(values.journal)}`);
    if (values.report && !reportFault) io.out(`report: ${shownPath(values.report)}`);
    if (fileTrouble) {
      io.err(`update-many: ${fileTrouble.message}`);
      io.err('update-many: stopped before sending anything more: no line was sent after the trouble began');
      if (journal && journal.unwritten > 0)
        io.err(
          `update-many: ${plural(journal.unwritten, 'outcome')} could not be recorded in the journal; their lines are sent again by a rerun`,
        );
    }
    // What to do next, last: a stopped or partly failed run is usually run again.
    if (fileTrouble)
      io.out(
        values.journal
          ? 'to go on: make the file writable (free space on its disk), then run the same command again (same --input and --journal); the lines done are skipped'
          : 'to go on: make the file writable (free space on its disk), then run the same command again',
      );
    else if (values.journal && (interrupted || summary.failed > 0))
      io.out('to go on: run the same command again (same --input and --journal); the lines done are skipped');
    else if (interrupted)
      io.out('to go on: run it again (every line is sent again); with --journal FILE a rerun skips the lines done');
    return summary;
  }

  /** The exit status, from the first reason the run ended (said on stderr) or its outcomes. */
  private exitCode(connection: Connection, fault: unknown, summary: Summary): number {
    const { io } = this;
    const secrets = this.secrets();
    // A file that could not be written is a file error (exit 2), found before or during the run alike.
    if (this.fileTrouble) return 2;
    if (fault !== undefined) {
      io.err(secrets.message(`update-many: ${fault instanceof Error ? fault.message : String(fault)}`));
      return 1;
    }
    if (this.credentialsFailed) {
      io.err(secrets.message(`update-many: ${refusalMessage(connection.credentials, this.credentialsFailed)}`));
      return exitOfTrouble(troubleOf(this.credentialsFailed), 1);
    }
    const signal: StopSignal | undefined = this.stopper?.signal;
    if (signal) return EXIT_ON[signal];
    if (this.unanswered) {
      io.err(secrets.message(`update-many: ${this.noAnswer.message(secrets.text(connection.baseUrl))}`));
      return 1;
    }
    return summary.failed > 0 || summary.invalid > 0 ? 1 : 0;
  }
}
