// A service that does not answer at all (a wrong --base-url, a host that is down, a firewall) fails
// every line alike, each after the client's retries. update-many stops sending once so many lines in a
// row got no answer, rather than working through the whole input against a closed port; one line that
// is answered, even with an error status, starts the count again.
import { BaasNetworkError, BaasTimeoutError } from '../../errors.js';

/** Lines in a row without any answer after which the run stops sending. */
export const NO_ANSWER_LINES = 10;

export class NoAnswerStreak {
  private streak = 0;
  /** The last failure of the streak that stopped the run, once it has. */
  stoppedBy: BaasNetworkError | BaasTimeoutError | undefined;

  /** Counts one finished line; true once the run should stop sending. */
  add(error: unknown): boolean {
    if (error instanceof BaasNetworkError || error instanceof BaasTimeoutError) {
      this.streak += 1;
      if (this.streak >= NO_ANSWER_LINES) this.stoppedBy ??= error;
    } else {
      this.streak = 0;
    }
    return this.stoppedBy !== undefined;
  }

  /** What the run says last: where it got no answer, why (the system's code), and what to check. */
  message(baseUrl: string): string {
    const error = this.stoppedBy!;
    const why =
      error instanceof BaasNetworkError
        ? error.code
          ? ` (${error.code})`
          : ''
        : ` (no complete answer within ${error.timeoutMs} ms)`;
    return (
      `no answer from ${baseUrl}${why} for ${NO_ANSWER_LINES} lines in a row: stopped sending. ` +
      'Check --base-url and that the service is up, then run the same command again'
    );
  }
}
