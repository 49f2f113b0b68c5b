// The --report file, written as the run goes (a million lines never sit in memory): the settings,
// each line's outcome in the order lines finished, then the summary. Nothing in it is a secret, a
// CPF or an account: lines are named by number, credentials by kind. It is a whole-file write
// (./files.ts): written to a temporary file beside it and renamed into place when finished; it replaces
// only a report of the same journal (its settings record the journal's id; a run without a journal
// replaces only a report written without one), never another run's report, a link or another file.
// A write that fails (a full disk) is said at once (`onTrouble`), in our words, and stops the run.
import { type FileError, fileProblem, type NamedFile, type Owned, readHead, WholeFile } from '../../files.js';

export interface ReportSettings {
  command: 'update-many' | 'export-keys';
  input?: string;
  out?: string;
  baseUrl: string | undefined;
  credentials: string | undefined;
  concurrency?: number;
  /** Requests per second at most; null: found from the service's answers. */
  rate: number | null;
  journal: string | null;
  dryRun?: boolean;
}

/** The report's first line, as this command writes it: its settings, and the id of its journal (null: none). */
const settingsOf = (head: string): { journalId?: unknown } | undefined => {
  const first = head.split('\n', 1)[0]!;
  if (!first.startsWith(REPORT_START) || !first.endsWith(',')) return undefined;
  try {
    const parsed = JSON.parse(`${first.slice(0, -1)}}`) as { settings?: { command?: unknown; journalId?: unknown } };
    return typeof parsed.settings?.command === 'string' ? parsed.settings : undefined;
  } catch {
    return undefined;
  }
};

// How every report begins: how an existing --report is known to be one, and so may be replaced.
const REPORT_START = '{"settings":';
/** A report this journal's runs wrote (the same journal id; both null: runs without a journal). */
const sameJournal =
  (journalId: string | null): Owned =>
  async (file) => {
    const settings = settingsOf(await readHead(file, 64 * 1024));
    return settings !== undefined && (settings.journalId ?? null) === journalId;
  };
const WHAT_TO_DO =
  'it is not a report this journal wrote (another run, another journal, or no report at all), so it is not replaced; remove it or choose another name';
const reportFile = (path: string): NamedFile => ({ flag: '--report', path });

export class ReportWriter {
  private first = true;
  private chain: Promise<unknown> = Promise.resolve();
  // Lines wait here until a write's worth has gathered.
  private pending = '';

  private constructor(
    private readonly whole: WholeFile,
    private readonly onTrouble: (error: FileError) => void,
  ) {}

  private get file() {
    return this.whole.handle;
  }

  /** Refuses, before anything is written, a --report that `open` would refuse. */
  static check(path: string, journalId: string | null): Promise<void> {
    return WholeFile.check(reportFile(path), sameJournal(journalId), WHAT_TO_DO);
  }

  /** Starts the report that will replace `path` once finished, with the settings and its journal's id. */
  static async open(
    path: string,
    journalId: string | null,
    onTrouble: (error: FileError) => void,
    settings: ReportSettings,
  ): Promise<ReportWriter> {
    const writer = new ReportWriter(
      await WholeFile.create(reportFile(path), sameJournal(journalId), WHAT_TO_DO),
      onTrouble,
    );
    writer.queue(`${REPORT_START}${JSON.stringify({ ...settings, journalId })},\n"lines":[`);
    return writer;
  }

  /** Writes `text` after what is queued; a failure is said once, and nothing more is written. */
  private queue(text: string): void {
    this.chain = this.chain.then(() =>
      this.failure
        ? undefined
        : this.file.write(text).then(
            () => undefined,
            (error: unknown) => {
              this.failure = fileProblem(reportFile(this.whole.file.path), error) as FileError;
              this.onTrouble(this.failure);
            },
          ),
    );
  }

  private failure: FileError | undefined;

  /** Drops the unfinished report: the file at --report stays as it was. */
  discard(): Promise<void> {
    return this.whole.discard();
  }

  /** Adds one line's outcome (written in order, without waiting). */
  line(entry: object): void {
    this.pending += `${this.first ? '\n' : ',\n'}${JSON.stringify(entry)}`;
    this.first = false;
    if (this.pending.length >= 64 * 1024) this.write();
  }

  private write(): void {
    const text = this.pending;
    this.pending = '';
    this.queue(text);
  }

  /** Writes the summary and closes the file. */
  async finish(summary: object): Promise<void> {
    try {
      this.write();
      this.queue(`\n],\n"summary":${JSON.stringify(summary)}}\n`);
      await this.chain;
      if (this.failure) throw this.failure;
      await this.whole.commit();
    } finally {
      await this.whole.discard();
    }
  }
}
