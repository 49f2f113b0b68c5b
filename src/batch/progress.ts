// The counts a batch reports: what was started, answered and how, how many are in flight, the
// concurrency it settled on and the rate it observed.

/** A snapshot of a batch's counts (`onProgress`, and `progress()` of the run). */
export interface BatchProgress {
  /** Items pulled from the input and started (validated, then sent or waiting for their turn). */
  started: number;
  /** Items with a result: `ok + failed`. */
  done: number;
  /** Items updated. */
  ok: number;
  /** Items that failed after their retries (`UpdateFailure`). */
  failed: number;
  /** Items started and not done. */
  inFlight: number;
  /** Items started but stopped by the signal before any answer: they yield no result. */
  stopped: number;
  /** Requests sent, retries included (an item that failed validation sends none). */
  requests: number;
  /** Answers of 429 or 503 (each lowered the concurrency, at most once per round of requests). */
  overloaded: number;
  /** The concurrency now: `concurrency`, lowered by 429 and 503 answers, climbing back on good answers. */
  concurrency: number;
  /** The most items that were in flight at once so far: what actually ran, at most `concurrency`'s ceiling. */
  peakConcurrency: number;
  /** The lowest the concurrency was set to so far (429 and 503 answers lower it). */
  lowestConcurrency: number;
  /** Requests per second from the first request to now (0 before the first). */
  rate: number;
  /**
   * The provider's limit in requests per second, when a 429's rate-limit header fields state one
   * (`RateLimit-Policy`'s quota and window); requests are then paced to it.
   */
  discoveredLimit: number | undefined;
  /** Since the first item was pulled, in ms. */
  elapsedMs: number;
}

/** The counters behind BatchProgress. */
export class Counts {
  started = 0;
  ok = 0;
  failed = 0;
  stopped = 0;
  requests = 0;
  overloaded = 0;
  /** The most items in flight at once. */
  private peak = 0;
  private readonly begun = Date.now();
  private firstRequest: number | undefined;

  /** An item took its slot: it is in flight until it is done or stopped. */
  start(): void {
    this.started += 1;
    this.peak = Math.max(this.peak, this.started - this.ok - this.failed - this.stopped);
  }

  request(): void {
    this.requests += 1;
    this.firstRequest ??= Date.now();
  }

  snapshot(concurrency: { current: number; lowest: number }, discoveredLimit: number | undefined): BatchProgress {
    const now = Date.now();
    const seconds = this.firstRequest === undefined ? 0 : (now - this.firstRequest) / 1000;
    const done = this.ok + this.failed;
    return {
      started: this.started,
      done,
      ok: this.ok,
      failed: this.failed,
      inFlight: this.started - done - this.stopped,
      stopped: this.stopped,
      requests: this.requests,
      overloaded: this.overloaded,
      concurrency: concurrency.current,
      peakConcurrency: this.peak,
      lowestConcurrency: concurrency.lowest,
      rate: seconds > 0 ? this.requests / seconds : 0,
      discoveredLimit,
      elapsedMs: now - this.begun,
    };
  }
}
