// `update-many`: validate every line of the input first, then send the valid ones (skipping those
// the journal says are done), journal and report each outcome, show progress, and stop cleanly.
import { randomBytes } from 'node:crypto';
import { n, plural } from '../../words.js';
import { stat } from 'node:fs/promises';
import { createBaasClient } from '../../client/baas-client.js';
import { redactMessage } from '../../redact.js';
import {
  type CredentialRefusal,
  credentialFailure,
  exitOfTrouble,
  refusalMessage,
  troubleOf,
} from '../connection/credentials.js';
import { UsageError, type CommandContext } from '../command.js';
import type { UpdateManyValues } from '../update-many.js';
import type { UpdateItem } from '../../batch/results.js';
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
import { type InputIdentity, JournalWriter, readJournal } from './journal.js';
import { shownPath } from '../output.js';
import { type Connection, connectionFrom, INSECURE_HTTP_WARNING, paceFrom } from './options.js';
import { Progress, type ProgressOutput } from './progress.js';
import { ReportWriter } from './report.js';
import { updateMany } from '../../batch/update-many.js';
import { EXIT_ON } from '../connection/exit-codes.js';
import { Stopper } from './stop.js';
import { failureOf, type LineResult, summaryLines, Tally } from './summary.js';
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

export async function runUpdateMany(values: UpdateManyValues, io: RunIo): Promise<number> {
  const input = values.input;
  if (!input) throw new UsageError('--input FILE is required');
  const dryRun = values['dry-run'] === true;
  const encoding = encodingFrom(values.encoding, input);
  const pace = paceFrom(values);
  // Checked before the input is read: a misspelt flag is said at once, not after a million lines.
  const connection: Connection | undefined = dryRun ? undefined : connectionFrom(values, io.env);
  let lock: JournalLock | undefined;
  try {
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
    if (journalFile) lock = await JournalLock.take(journalFile);
    const done = new DoneLines();
    const journalRead = values.journal
      ? await readJournal(values.journal, 'update-many', (e) => done.apply(e))
      : undefined;
    // A journal belongs to one input: what it records of it, and the input given now.
    const inputIdentity = await identityOf({ flag: '--input', path: input });
    if (journalRead?.identity?.input) checkSameInput(journalRead.identity.input, inputIdentity, values.journal!, io);
    // The report this journal's runs write (a new journal's id is made now; a version 1 journal has none).
    const journalId = journalRead
      ? (journalRead.identity?.id ?? (journalRead.started ? null : randomBytes(8).toString('hex')))
      : null;
    if (values.report && !dryRun) await ReportWriter.check(values.report, journalId);

    // Validation first: every line, before anything is sent.
    let good = 0;
    let bad = 0;
    let alreadyDone = 0;
    const say = dryRun ? io.out : io.err;
    // The terminal shows the first SHOWN_PROBLEMS problems, then how many more (the report has them all).
    let problems = 0;
    for await (const line of readInput(input, { encoding })) {
      if (line.issues) {
        bad += 1;
        for (const text of badLineText(line)) {
          problems += 1;
          if (problems <= SHOWN_PROBLEMS) say(text);
        }
        // Back-pressure: a slow terminal or pipe holds the reading, never memory.
        await io.drained?.();
      } else {
        good += 1;
        if (done.state(line.line, line.hash!) === 'done') alreadyDone += 1;
      }
    }
    // A file with no update in it is a mistake (the wrong file, an export that wrote nothing): said
    // before anything is sent, rather than a run that does nothing and succeeds.
    if (good + bad === 0) throw new UsageError(await noUpdates(input));
    if (problems > SHOWN_PROBLEMS)
      say(
        `… and ${plural(problems - SHOWN_PROBLEMS, 'more problem')}; ${values.report && !dryRun ? `see ${shownPath(values.report)}` : 'run with --report FILE to list them all'}`,
      );
    if (dryRun) {
      io.out(`${plural(good + bad, 'line')}: ${n(good)} valid, ${n(bad)} invalid; nothing sent (--dry-run)`);
      return bad > 0 ? 1 : 0;
    }
    return await send(input, values, io, connection!, pace, done, journalRead, good - alreadyDone, lock, {
      input: inputIdentity,
      journalId,
      encoding,
    });
  } finally {
    await lock?.release();
    await connection?.credentials.close();
  }
}

async function send(
  input: string,
  values: UpdateManyValues,
  io: RunIo,
  connection: Connection,
  pace: ReturnType<typeof paceFrom>,
  done: DoneLines,
  journalRead: Awaited<ReturnType<typeof readJournal>> | undefined,
  toSend: number,
  lock: JournalLock | undefined,
  {
    input: inputIdentity,
    journalId,
    encoding,
  }: { input: InputIdentity; journalId: string | null; encoding: InputEncoding },
): Promise<number> {
  const { credentials } = connection;
  const client = createBaasClient({
    baseUrl: connection.baseUrl,
    // The library's own token source (the token held, or clientCredentials with its cache and refresh).
    token: credentials.token!,
    ...(credentials.fetch ? { fetch: credentials.fetch } : {}),
    ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
  });
  // The one holder of the run's secrets: the client's own (every token its source issued that is still
  // alive), through which every line, the report and the failure list are built.
  const secrets = credentials.secretsOf(client);
  if (connection.insecureHttp) io.err(INSECURE_HTTP_WARNING);
  let stopped = false;
  // A file that cannot be written (the journal's disk full, a lock whose lease was lost) stops the
  // run at once: no new line is sent; the outcomes of those in flight go into the journal's reserve.
  const halt = new AbortController();
  let fileTrouble: FileError | undefined;
  const troubled = (error: FileError) => {
    fileTrouble ??= error;
    stopped = true;
    halt.abort(error);
  };
  if (lock) lock.onLost = troubled;
  const journal =
    values.journal && journalRead
      ? await JournalWriter.open(values.journal, 'update-many', journalRead, {
          ...(lock ? { lock } : {}),
          identity: { command: 'update-many', input: inputIdentity, ...(journalId ? { id: journalId } : {}) },
          onTrouble: troubled,
        })
      : undefined;
  const report = values.report
    ? await ReportWriter.open(values.report, journalId, troubled, {
        command: 'update-many',
        input,
        baseUrl: secrets.text(connection.baseUrl),
        credentials: credentials.kind,
        concurrency: pace.concurrency,
        rate: pace.rate ?? null,
        journal: values.journal ?? null,
      })
    : undefined;
  const tally = new Tally();
  // The lines not done, listed on the terminal after the summary (the report lists them all).
  const notDone = new FailedLines(secrets);
  // Credentials that failed (refused, or no token) fail every line alike: the run stops at the first.
  let credentialsFailed: CredentialRefusal | undefined;
  // A service that answers nothing fails every line alike too: the run stops after a streak of them.
  const noAnswer = new NoAnswerStreak();
  let unanswered = false;
  // Ends the lines waiting to retry against a service that answers nothing: they end with their last failure.
  const giveUp = new AbortController();

  const record = (result: LineResult, hash?: string) => {
    tally.add(result);
    // Issues name fields as the input names them, and a CSV header can hold anything.
    report?.line(result.issues ? secrets.json(result) : result);
    if (result.outcome === 'skipped') return;
    journal?.append({
      line: result.line,
      outcome: result.outcome,
      ...(hash ? { hash } : {}),
      ...(result.status !== undefined ? { status: result.status } : {}),
      ...(result.kind ? { kind: result.kind } : {}),
    });
  };

  const lines = new WeakMap<UpdateItem, { line: number; hash: string }>();
  async function* items(): AsyncGenerator<UpdateItem> {
    for await (const line of readInput(input, { encoding })) {
      if (stopped || credentialsFailed || unanswered) return;
      await io.drained?.();
      if (line.issues) {
        record({ line: line.line, outcome: 'invalid', issues: line.issues });
        notDone.add(line.line, `invalid: ${line.issues.map(issueText).join('; ')}`);
        continue;
      }
      if (done.state(line.line, line.hash!) === 'done') {
        record({ line: line.line, outcome: 'skipped' });
        continue;
      }
      lines.set(line.item!, { line: line.line, hash: line.hash! });
      yield line.item!;
    }
  }

  const finish = async (interrupted: boolean) => {
    // Whatever fails here (a full disk), the summary is printed and what to do is said.
    const journalFault = await journal?.close().then(
      () => undefined,
      (error: unknown) => error,
    );
    if (journalFault instanceof FileError) fileTrouble ??= journalFault;
    tally.interrupted = interrupted;
    const summary = tally.summary();
    const reportFault = await report?.finish(summary).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (reportFault instanceof FileError) fileTrouble ??= reportFault;
    for (const line of summaryLines(summary)) io.out(line);
    // Credentials that failed failed every line alike: their one message says it all.
    if (!credentialsFailed) for (const line of notDone.lines(values.report)) io.err(line);
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
  };
  const stopper = new Stopper(
    () => {
      stopped = true;
      io.err('stopping: no new lines; the requests in flight finish (Ctrl-C again to give them up)');
    },
    () => {
      // Given up: what is in flight is aborted and not journaled (a rerun sends it); what is done is
      // kept. The run then ends as any other: journal closed, summary, how to go on.
      io.err('giving up the requests in flight: their lines are not recorded, so a rerun sends them');
      void run.return();
    },
    io.closed,
  );
  const run = updateMany(client, items(), {
    concurrency: pace.concurrency,
    ...(pace.rate !== undefined ? { rate: pace.rate } : {}),
    signal: AbortSignal.any([stopper.soft.signal, giveUp.signal, halt.signal]),
  });
  const progress = new Progress(io.progress, () => {
    const counts = run.progress();
    return { done: counts.done, failed: counts.failed, total: toSend };
  });

  let fault: unknown;
  try {
    for await (const result of run) {
      const meta = lines.get(result.item)!;
      if (result.ok) {
        record({ line: meta.line, outcome: 'ok' }, meta.hash);
        noAnswer.add(undefined);
        continue;
      }
      const entry: LineResult = { line: meta.line, outcome: 'failed', ...failureOf(result.error) };
      record(entry, meta.hash);
      notDone.add(meta.line, failureText(result.error, secrets));
      credentialsFailed ??= credentialFailure(result.error);
      if (noAnswer.add(result.error) && !unanswered) {
        unanswered = true;
        giveUp.abort();
      }
    }
  } catch (error) {
    fault = error;
  } finally {
    progress.stop();
    stopper.release();
    await client.close();
  }
  tally.requests = run.progress().requests;
  const summary = await finish(stopper.stopping || fileTrouble !== undefined);
  // A file that could not be written is a file error (exit 2), found before or during the run alike.
  if (fileTrouble) return 2;
  if (fault !== undefined) {
    io.err(secrets.message(`update-many: ${fault instanceof Error ? fault.message : String(fault)}`));
    return 1;
  }
  if (credentialsFailed) {
    io.err(secrets.message(`update-many: ${refusalMessage(credentials, credentialsFailed)}`));
    return exitOfTrouble(troubleOf(credentialsFailed), 1);
  }
  if (stopper.signal) return EXIT_ON[stopper.signal];
  if (unanswered) {
    io.err(secrets.message(`update-many: ${noAnswer.message(secrets.text(connection.baseUrl))}`));
    return 1;
  }
  return summary.failed > 0 || summary.invalid > 0 ? 1 : 0;
}
