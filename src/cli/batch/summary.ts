// The tally of an update-many run, and the summary printed at its end.
import { n, plural } from '../../words.js';
import { isBaasError } from '../../errors.js';
import type { LineIssue } from './input.js';

export type Outcome = 'ok' | 'failed' | 'invalid' | 'skipped';

/** One line's outcome, as the journal and the report hold it: no CPF, no account, no token. */
export interface LineResult {
  line: number;
  outcome: Outcome;
  /** The HTTP status of the answer, when there was one. */
  status?: number;
  /** Why a line failed: the error's kind (api, timeout, network, response, auth, validation). */
  kind?: string;
  /** Why a line is invalid: each field and the rule it broke. */
  issues?: LineIssue[];
}

export interface Summary {
  lines: number;
  /** Lines sent in this run (ok + failed). */
  sent: number;
  ok: number;
  failed: number;
  /** Failed lines by reason: the HTTP status (`503`), or the error's kind (`timeout`). */
  failedBy: Record<string, number>;
  /** Lines the journal says are done: not sent again. */
  skipped: number;
  invalid: number;
  elapsedSeconds: number;
  /** HTTP requests sent, retries included. */
  requests: number;
  requestsPerSecond: number;
  /** The run was stopped (Ctrl-C, SIGTERM) before every line was done. */
  interrupted: boolean;
  /** Lines in flight when a second Ctrl-C gave them up: not recorded, so a rerun sends them. */
  givenUp: number;
}

/** What a failure is called in the summary: its status, else its kind. */
export function failureOf(error: unknown): { status?: number; kind: string } {
  if (isBaasError(error)) {
    const status = (error as { status?: unknown }).status;
    return typeof status === 'number' ? { status, kind: error.kind } : { kind: error.kind };
  }
  // An abort (a second Ctrl-C) or anything else the library reports.
  return { kind: error instanceof Error && error.name === 'AbortError' ? 'aborted' : 'error' };
}

export class Tally {
  private readonly started = performance.now();
  lines = 0;
  ok = 0;
  failed = 0;
  skipped = 0;
  invalid = 0;
  requests = 0;
  interrupted = false;
  givenUp = 0;
  readonly failedBy: Record<string, number> = {};

  add(result: LineResult): void {
    this.lines += 1;
    if (result.outcome === 'ok') this.ok += 1;
    else if (result.outcome === 'skipped') this.skipped += 1;
    else if (result.outcome === 'invalid') this.invalid += 1;
    else {
      this.failed += 1;
      const reason = result.status !== undefined ? String(result.status) : (result.kind ?? 'error');
      this.failedBy[reason] = (this.failedBy[reason] ?? 0) + 1;
    }
  }

  summary(): Summary {
    const elapsed = (performance.now() - this.started) / 1000;
    return {
      lines: this.lines,
      sent: this.ok + this.failed,
      ok: this.ok,
      failed: this.failed,
      failedBy: { ...this.failedBy },
      skipped: this.skipped,
      invalid: this.invalid,
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      requests: this.requests,
      requestsPerSecond: elapsed > 0 ? Math.round((this.requests / elapsed) * 10) / 10 : 0,
      interrupted: this.interrupted,
      givenUp: this.givenUp,
    };
  }
}

/**
 * The summary's lines, for standard output. Two of our numbers never stand side by side without a letter
 * between (`503 for 2 lines, 422 for 1 line`, not `503: 2, 422: 1`): eleven digits joined by anything but
 * letters read as a CPF, and the terminal masks every line it writes.
 */
export function summaryLines(summary: Summary): string[] {
  const reasons = Object.entries(summary.failedBy)
    .sort(([, a], [, b]) => b - a)
    .map(([reason, count]) => `${reason} for ${plural(count, 'line')}`)
    .join(', ');
  return [
    `${summary.interrupted ? 'Interrupted' : 'Done'}: ${plural(summary.lines, 'line')}`,
    `  sent      ${n(summary.sent)} (ok ${n(summary.ok)}, failed ${n(summary.failed)})`,
    ...(summary.failed > 0 ? [`  failed    ${reasons}`] : []),
    ...(summary.givenUp > 0
      ? [`  given up  ${n(summary.givenUp)} (in flight at the second Ctrl-C: not recorded, so a rerun sends them)`]
      : []),
    `  skipped   ${n(summary.skipped)} (done in the journal)`,
    `  invalid   ${n(summary.invalid)}`,
    `  elapsed   ${summary.elapsedSeconds} s`,
    `  requests  ${n(summary.requests)}, retries included, at ${n(summary.requestsPerSecond)} per second`,
  ];
}
