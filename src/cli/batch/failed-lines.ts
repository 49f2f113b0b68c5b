// The lines of an update-many run that were not done (failed, or invalid and skipped), as the
// terminal shows them after the summary: the first few by line number, each with its status and rule,
// then how many more and where they are all listed. The report keeps every one; this keeps a handful.
import { BaasApiError, isBaasError, BaasNetworkError, BaasTimeoutError } from '../../errors.js';
import type { Secrets } from '../../redact.js';
import { plural } from '../../words.js';

/** Lines listed on the terminal at most: with the heading and the "more" line, ten lines. */
export const SHOWN_LINES = 8;

// A provider's title or rule is shown cut to this: a line of the list stays one terminal line.
const PROVIDER_TEXT = 100;

/**
 * What a failed line's error says on the terminal: the status and the provider's first violation
 * (`422 /address/state: must be one of the 27 UF codes`) or title (`404 Not Found`), masked and cut;
 * the error's kind for a failure without an answer (`network (ECONNREFUSED)`, `timeout (…)`). Never a
 * value of the line.
 */
export function failureText(error: unknown, secrets: Secrets): string {
  if (error instanceof BaasApiError) {
    const violations = error.problem?.violations;
    const first = Array.isArray(violations) ? violations[0] : undefined;
    const words =
      first && typeof first.property === 'string' && typeof first.reason === 'string'
        ? `${first.property}: ${first.reason}${violations!.length > 1 ? ` (and ${violations!.length - 1} more)` : ''}`
        : typeof error.problem?.title === 'string'
          ? error.problem.title
          : '';
    return `${error.status}${words ? ` ${secrets.bounded(words, PROVIDER_TEXT)}` : ''}`;
  }
  // The system's code (ECONNREFUSED, ENOTFOUND) says where to look; it was masked when the error was made.
  if (error instanceof BaasNetworkError) return error.code ? `network (${error.code})` : 'network';
  if (error instanceof BaasTimeoutError) return `timeout (no complete answer within ${error.timeoutMs} ms)`;
  if (isBaasError(error)) {
    const status = (error as { status?: unknown }).status;
    return typeof status === 'number' ? `${status} (${error.kind})` : error.kind;
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
              ? `  … and ${more} more; see ${reportFile}`
              : `  … and ${more} more; run again with --report FILE to list them all`,
          ]),
    ];
  }
}
