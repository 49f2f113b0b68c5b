// `update-many`: validate every line of the input first, then send the valid ones (skipping those
// the journal says are done), journal and report each outcome, show progress, and stop cleanly.
import { n, plural } from '../../words.js';
import { stat } from 'node:fs/promises';
import { createBaasClient } from '../../client/baas-client.js';
import { redactJson, redactMessage, redactText } from '../../redact.js';
import {
  type CredentialRefusal,
  credentialFailure,
  exitOfTrouble,
  refusalMessage,
  troubleOf,
} from '../../verify/credentials.js';
import { UsageError, type CommandContext } from '../command.js';
import type { UpdateManyValues } from '../update-many.js';
import type { UpdateItem } from '../../batch/results.js';
import { formatOf, type InputLine, type LineIssue, readInput, WHOLE_LINE } from './input.js';
import { FailedLines, failureText } from './failed-lines.js';
import { NoAnswerStreak } from './no-answer.js';
import { distinctFiles, JournalLock, type NamedFile, readableProblem } from '../../files.js';
import { JournalWriter, readJournal } from './journal.js';
import { type Connection, connectionFrom, INSECURE_HTTP_WARNING, paceFrom } from './options.js';
import { Progress, type ProgressOutput } from './progress.js';
import { ReportWriter } from './report.js';
import { updateMany } from '../../batch/update-many.js';
import { EXIT_ON, Stopper } from './stop.js';
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
    if (values.report && !dryRun) await ReportWriter.check(values.report);
    // Held from before the journal is read until it is closed: a second run on it is refused.
    if (journalFile) lock = await JournalLock.take(journalFile);
    const done = new DoneLines();
    const journalRead = values.journal
      ? await readJournal(values.journal, 'update-many', (e) => done.apply(e))
      : undefined;

    // Validation first: every line, before anything is sent.
    let good = 0;
    let bad = 0;
    let alreadyDone = 0;
    const say = dryRun ? io.out : io.err;
    for await (const line of readInput(input, { encoding })) {
      if (line.issues) {
        bad += 1;
        for (const text of badLineText(line)) say(text);
      } else {
        good += 1;
        if (done.state(line.line, line.hash!) === 'done') alreadyDone += 1;
      }
    }
    // A file with no update in it is a mistake (the wrong file, an export that wrote nothing): said
    // before anything is sent, rather than a run that does nothing and succeeds.
    if (good + bad === 0) throw new UsageError(await noUpdates(input));
    if (dryRun) {
      io.out(`${plural(good + bad, 'line')}: ${n(good)} valid, ${n(bad)} invalid; nothing sent (--dry-run)`);
      return bad > 0 ? 1 : 0;
    }
    return await send(input, values, io, connection!, pace, done, journalRead, good - alreadyDone, lock, encoding);
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
  encoding: InputEncoding,
): Promise<number> {
  const { credentials } = connection;
  const secrets = () => credentials.secrets;
  if (connection.insecureHttp) io.err(INSECURE_HTTP_WARNING);
  const journal =
    values.journal && journalRead
      ? await JournalWriter.open(values.journal, 'update-many', journalRead, lock ? { lock } : {})
      : undefined;
  const report = values.report
    ? await ReportWriter.open(values.report, {
        command: 'update-many',
        input,
        baseUrl: redactText(connection.baseUrl, credentials.secrets),
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
  const client = createBaasClient({
    baseUrl: connection.baseUrl,
    // The library's own token source (the token held, or clientCredentials with its cache and refresh).
    token: credentials.token!,
    ...(credentials.fetch ? { fetch: credentials.fetch } : {}),
    ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
  });

  const record = (result: LineResult, hash?: string) => {
    tally.add(result);
    // Issues name fields as the input names them, and a CSV header can hold anything.
    report?.line(result.issues ? redactJson(result, secrets()) : result);
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
  let stopped = false;
  async function* items(): AsyncGenerator<UpdateItem> {
    for await (const line of readInput(input, { encoding })) {
      if (stopped || credentialsFailed || unanswered) return;
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
    await journal?.close();
    tally.interrupted = interrupted;
    const summary = tally.summary();
    await report?.finish(summary);
    for (const line of summaryLines(summary)) io.out(line);
    // Credentials that failed failed every line alike: their one message says it all.
    if (!credentialsFailed) for (const line of notDone.lines(values.report)) io.err(line);
    if (values.journal) io.out(`journal: ${values.journal}`);
    if (values.report) io.out(`report: ${values.report}`);
    // What to do next, last: a stopped or partly failed run is usually run again.
    if (values.journal && (interrupted || summary.failed > 0))
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
    (signal) => {
      // Given up: what is in flight is not journaled (a rerun sends it); what is done is kept.
      progress.stop();
      void finish(true).finally(() => process.exit(EXIT_ON[signal]));
    },
  );
  const run = updateMany(client, items(), {
    concurrency: pace.concurrency,
    ...(pace.rate !== undefined ? { rate: pace.rate } : {}),
    signal: AbortSignal.any([stopper.soft.signal, giveUp.signal]),
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
      notDone.add(meta.line, failureText(result.error, secrets()));
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
  const summary = await finish(stopper.stopping);
  if (fault !== undefined) {
    io.err(redactMessage(`update-many: ${fault instanceof Error ? fault.message : String(fault)}`, secrets()));
    return 1;
  }
  if (credentialsFailed) {
    io.err(redactMessage(`update-many: ${refusalMessage(credentials, credentialsFailed)}`, secrets()));
    return exitOfTrouble(troubleOf(credentialsFailed), 1);
  }
  if (stopper.signal) return EXIT_ON[stopper.signal];
  if (unanswered) {
    io.err(redactMessage(`update-many: ${noAnswer.message(redactText(connection.baseUrl, secrets()))}`, secrets()));
    return 1;
  }
  return summary.failed > 0 || summary.invalid > 0 ? 1 : 0;
}
