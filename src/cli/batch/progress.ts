// Progress while a batch runs, on standard error: on a terminal one line redrawn in place (a bar,
// done, failed, rate, ETA); elsewhere (a log, a pipe) one plain line every few seconds.

export interface ProgressCounts {
  /** Lines finished in this run (ok or failed). */
  done: number;
  failed: number;
  /** Lines this run is to send; undefined when not known (keys to export). */
  total: number | undefined;
}

export interface ProgressOutput {
  isTTY?: boolean | undefined;
  write(text: string): unknown;
}

const BAR = 20;
/** How often a line is printed when standard error is no terminal. */
export const PLAIN_EVERY_MS = 5_000;
const REDRAW_EVERY_MS = 200;

const seconds = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/** The progress line's words: done of total, failed, lines per second, and the time left. */
export function progressText(counts: ProgressCounts, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (counts.done * 1000) / elapsedMs : 0;
  if (counts.total === undefined) return `${counts.done} written, ${rate.toFixed(1)}/s`;
  const left = counts.total - counts.done;
  const eta = rate > 0 ? seconds((left / rate) * 1000) : '?';
  return `${counts.done}/${counts.total} done, ${counts.failed} failed, ${rate.toFixed(1)}/s, ETA ${eta}`;
}

export class Progress {
  private readonly started = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private drawn = false;

  constructor(
    private readonly output: ProgressOutput,
    private readonly counts: () => ProgressCounts,
  ) {
    const every = output.isTTY ? REDRAW_EVERY_MS : PLAIN_EVERY_MS;
    this.timer = setInterval(() => this.draw(), every).unref();
  }

  private draw(): void {
    const counts = this.counts();
    const text = progressText(counts, performance.now() - this.started);
    if (!this.output.isTTY) {
      this.output.write(`progress: ${text}\n`);
      return;
    }
    const total = counts.total;
    const filled = total === undefined ? 0 : total > 0 ? Math.min(BAR, Math.round((BAR * counts.done) / total)) : BAR;
    const bar = total === undefined ? '' : `[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] `;
    this.output.write(`\r\u001b[2K${bar}${text}`);
    this.drawn = true;
  }

  /** Stops redrawing; on a terminal, clears the line so the summary starts clean. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.output.write('\r\u001b[2K');
  }
}
