// The lines of an update-many run that were not done (failed, or invalid and skipped), as the
// terminal shows them after the summary: the first few by line number, each with its status and rule,
// then how many more and where they are all listed. The report keeps every one; this keeps a handful.
import { STATUS_CODES } from 'node:http';
import { BaasApiError, isBaasError, BaasNetworkError, BaasTimeoutError } from '../../errors.js';
import type { Secrets } from '../../redact.js';
import { n, plural } from '../../words.js';

/** Lines listed on the terminal at most: with the heading and the "more" line, ten lines. */
export const SHOWN_LINES = 8;

// A provider's title or rule is shown cut to this: a line of the list stays one terminal line.
const PROVIDER_TEXT = 100;

// Our own numbers (the line number, the status, a count) never touch a digit of another number, ours or
// the provider's, without a letter between: eleven digits joined by anything but letters read as a CPF
// (src/redact.ts), so `line 12: 422 1234567…` would be masked whole, line number and status included, and
// the terminal masks every line it writes again. The status is written `HTTP 422 Unprocessable Entity`
// (letters on both sides of it), and the provider's words, masked on their own, come after that name.

/** A status as the list writes it: `HTTP 404 Not Found`; a status without a name, by its class (`HTTP 499 Client Error`). */
export function statusText(status: number): string {
  const name =
    STATUS_CODES[status] ??
    (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : status >= 300 ? 'Redirection' : 'Status');
  return `HTTP ${status} ${name}`;
}

/**
 * What a failed line's error says on the terminal: the status with its name, then the provider's first
 * violation (`HTTP 422 Unprocessable Entity: /address/state: must be one of the 27 UF codes`) or title
 * (`HTTP 404 Not Found: Customer not found`; none when it only repeats the name), masked and cut on its own;
 * the error's kind for a failure without an answer (`network (ECONNREFUSED)`, `timeout (…)`). Never a
 * value of the line.
 */
export function failureText(error: unknown, secrets: Secrets): string {
  if (error instanceof BaasApiError) {
    const status = statusText(error.status);
    const violations = error.problem?.violations;
    const first = Array.isArray(violations) ? violations[0] : undefined;
    if (first && typeof first.property === 'string' && typeof first.reason === 'string') {
      const more = violations!.length > 1 ? ` (and ${n(violations!.length - 1)} more)` : '';
      return `${status}: ${secrets.bounded(`${first.property}: ${first.reason}`, PROVIDER_TEXT)}${more}`;
    }
    const title = error.problem?.title;
    if (typeof title !== 'string' || title.trim() === '') return status;
    if (status.toLowerCase().endsWith(` ${title.trim().toLowerCase()}`)) return status;
    return `${status}: ${secrets.bounded(title, PROVIDER_TEXT)}`;
  }
  // The system's code (ECONNREFUSED, ENOTFOUND) says where to look; it was masked when the error was made.
  if (error instanceof BaasNetworkError) return error.code ? `network (${error.code})` : 'network';
  if (error instanceof BaasTimeoutError) return `timeout (no complete answer within ${error.timeoutMs} ms)`;
  if (isBaasError(error)) {
    const status = (error as { status?: unknown }).status;
    return typeof status === 'number' ? `${statusText(status)} (${error.kind})` : error.kind;
  }
  return error instanceof Error && error.name === 'AbortError' ? 'aborted' : 'error';
}

export class FailedLines {
  /** The lowest-numbered lines not done, in line order, at most SHOWN_LINES. */
  private readonly shown: { line: number; text: string }[] = [];
  /** Every line not done. */
  count = 0;

  /** `secrets`: the run's one holder (the client's Secrets, once it is made), through which each line is built. */
  constructor(private readonly secrets: () => Secrets) {}

  /** A line not done, and why: `422 /address/state: …`, `invalid: documentNumber: is not a CPF …`. */
  add(line: number, why: string): void {
    this.count += 1;
    if (this.shown.length === SHOWN_LINES && line > this.shown.at(-1)!.line) return;
    this.shown.push({ line, text: this.secrets().message(`line ${line}: ${why}`) });
    this.shown.sort((a, b) => a.line - b.line);
    if (this.shown.length > SHOWN_LINES) this.shown.pop();
  }

  /** The list for standard error, after the summary; none when every line was done. */
  lines(reportFile: string | undefined): string[] {
    if (this.count === 0) return [];
    const more = this.count - this.shown.length;
    return [
      `${plural(this.count, 'line')} not done${more > 0 ? `; the first ${this.shown.length}` : ''}:`,
      ...this.shown.map(({ text }) => `  ${text}`),
      ...(more === 0
        ? []
        : [
            reportFile
              ? `  … and ${n(more)} more; see ${reportFile}`
              : `  … and ${n(more)} more; run again with --report FILE to list them all`,
          ]),
    ];
  }
}
