// The --report file, written as the run goes (a million lines never sit in memory): the settings,
// each line's outcome in the order lines finished, then the summary. Nothing in it is a secret, a
// CPF or an account: lines are named by number, credentials by kind.
import { type FileHandle, open } from 'node:fs/promises';

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

export class ReportWriter {
  private first = true;
  private chain: Promise<unknown> = Promise.resolve();
  // Lines wait here until a write's worth has gathered.
  private pending = '';

  private constructor(private readonly file: FileHandle) {}

  /** Opens `path` (replacing it) and writes the settings. */
  static async open(path: string, settings: ReportSettings): Promise<ReportWriter> {
    const file = await open(path, 'w');
    const writer = new ReportWriter(file);
    writer.chain = file.write(`{"settings":${JSON.stringify(settings)},\n"lines":[`);
    return writer;
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
    } finally {
      await this.file.close();
    }
  }
}
