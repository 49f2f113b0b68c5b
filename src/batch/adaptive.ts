// Adaptive concurrency, additive increase and multiplicative decrease: a 429 or 503 halves the
// concurrency (never below 1); each round of good answers (as many as the concurrency) adds one back,
// up to the ceiling. One burst of 429s lowers it once: an answer to a request sent before the last
// cut says nothing new about the lowered concurrency.

export class AdaptiveConcurrency {
  current: number;
  lowest: number;
  private good = 0;
  /** Requests numbered from 1 as they are sent; answers to those up to this one came before the last cut. */
  private cutAt = 0;
  private sent = 0;

  constructor(
    private readonly ceiling: number,
    private readonly changed: (concurrency: number) => void,
  ) {
    this.current = ceiling;
    this.lowest = ceiling;
  }

  /** A request is sent; its number, for the answer. */
  send(): number {
    this.sent += 1;
    return this.sent;
  }

  /** The answer to request `number` was a 429 or a 503. */
  overloaded(number: number): void {
    this.good = 0;
    if (number <= this.cutAt) return;
    this.cutAt = this.sent;
    this.set(Math.max(1, Math.floor(this.current / 2)));
  }

  /** The answer to request `number` was not an overload (a success or an error of the item itself). */
  answered(): void {
    if (this.current >= this.ceiling) return;
    this.good += 1;
    if (this.good < this.current) return;
    this.good = 0;
    this.set(this.current + 1);
  }

  private set(concurrency: number): void {
    if (concurrency === this.current) return;
    this.current = concurrency;
    this.lowest = Math.min(this.lowest, concurrency);
    this.changed(concurrency);
  }
}
