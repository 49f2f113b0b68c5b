// The --report file, written as the run goes (a million lines never sit in memory): the settings,
// each line's outcome in the order lines finished, then the summary. Nothing in it is a secret, a
// CPF or an account: lines are named by number, credentials by kind. It is a whole-file write
// (./files.ts): written to a temporary file beside it and renamed into place when finished; it replaces
// only a report (a file that begins as one), never a link or another file.
import { beginsWith, type NamedFile, WholeFile } from '../../files.js';

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

// How every report begins: how an existing --report is known to be one, and so may be replaced.
const REPORT_START = '{"settings":';
const isReport = beginsWith(`${REPORT_START}{"command":`);
const WHAT_TO_DO = 'it is not a report of this command, so it is not replaced; remove it or choose another name';
const reportFile = (path: string): NamedFile => ({ flag: '--report', path });

export class ReportWriter {
  private first = true;
  private chain: Promise<unknown> = Promise.resolve();
  // Lines wait here until a write's worth has gathered.
  private pending = '';

  private constructor(private readonly whole: WholeFile) {}

  private get file() {
    return this.whole.handle;
  }

  /** Refuses, before anything is written, a --report that `open` would refuse. */
  static check(path: string): Promise<void> {
    return WholeFile.check(reportFile(path), isReport, WHAT_TO_DO);
  }

  /** Starts the report that will replace `path` once finished, with the settings. */
  static async open(path: string, settings: ReportSettings): Promise<ReportWriter> {
    const writer = new ReportWriter(await WholeFile.create(reportFile(path), isReport, WHAT_TO_DO));
    writer.chain = writer.file.write(`${REPORT_START}${JSON.stringify(settings)},\n"lines":[`);
    return writer;
  }

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
    this.chain = this.chain.then(() => this.file.write(text));
  }

  /** Writes the summary and closes the file. */
  async finish(summary: object): Promise<void> {
    try {
      this.write();
      await this.chain;
      await this.file.write(`\n],\n"summary":${JSON.stringify(summary)}}\n`);
      await this.whole.commit();
    } finally {
      await this.whole.discard();
    }
  }
}
