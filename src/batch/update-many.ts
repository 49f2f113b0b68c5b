// updateMany: many customers updated through one client, lazily, at a bounded concurrency that a
// 429 or 503 lowers and good answers raise again, each request paced (rate, discovered limit,
// limiter). The input is pulled only when a slot is free, so memory follows the concurrency, not
// the input; a lowered concurrency simply pulls nothing until enough items have finished.
import type { BaasClient } from '../client/baas-client.js';
import { ApiError, type BaasError, ValidationError } from '../errors.js';
import { operations } from '../generated/operations.js';
import { AdaptiveConcurrency } from './adaptive.js';
import { attemptUntilDone } from './attempts.js';
import { checkUpdateManyOptions, type UpdateManyOptions, type UpdateManySettings } from './options.js';
import { Pacing } from './pacing.js';
import { type BatchProgress, Counts } from './progress.js';
import { resultOf, type UpdateItem, type UpdateManyResult } from './results.js';

/** What updateMany needs of a client: `createBaasClient`'s does. */
export type BatchClient = Pick<BaasClient, 'updateNaturalPerson' | 'on'>;

/** The results of updateMany as they complete, and the counts so far. */
export interface UpdateManyRun<I extends UpdateItem = UpdateItem> extends AsyncIterableIterator<UpdateManyResult<I>> {
  /** The counts now: the same object `onProgress` gets. */
  progress(): BatchProgress;
  /** Stops the batch (what `break` out of a `for await` does): nothing more is pulled, requests running are aborted. */
  return(): Promise<IteratorResult<UpdateManyResult<I>, undefined>>;
}

const OVERLOADED = new Set([429, 503]);

/**
 * Updates many customers, one `updateNaturalPerson` call each, and yields one result per item **in
 * completion order** (not input order): `{ index, item, ok: true, result }` or `{ index, item, ok:
 * false, error }`, where `index` is the item's position in the input. Nothing is pulled or sent
 * until the first result is asked for.
 *
 * - `items`: any iterable or async iterable (an array, a generator reading a file). It is pulled
 *   lazily: at most `concurrency` items are in flight, plus one waiting for a slot, plus results not
 *   yet read (at most `concurrency`); memory does not grow with the input.
 * - Each item is checked by the client before it is sent: a bad one yields a ValidationError and
 *   sends nothing.
 * - Every request waits for its turn: `rate`, the provider's own limit once its `RateLimit-Policy`
 *   header field states one, and `limiter`. Retries are made here, not by the client, so they are
 *   paced too; `Retry-After` is honoured.
 * - A 429 or 503 halves the concurrency (at least 1); each round of good answers (as many as the
 *   concurrency) raises it by one, up to `concurrency`.
 * - Aborting `signal` stops pulling and starting attempts; with `inFlight: 'finish'` (the default)
 *   the requests already sent finish and yield their results, an item waiting to retry yields its last
 *   error, and an item not yet sent yields nothing (`progress().stopped` counts them). Breaking out
 *   of the loop aborts everything still running.
 *
 * Options are checked at once: a RangeError or TypeError names the option and its rule.
 */
export function updateMany<I extends UpdateItem>(
  client: BatchClient,
  items: Iterable<I> | AsyncIterable<I>,
  options?: UpdateManyOptions,
): UpdateManyRun<I> {
  if (typeof client?.updateNaturalPerson !== 'function' || typeof client.on !== 'function')
    throw new TypeError('updateMany: client must be a client of createBaasClient');
  if (!isIterable(items)) throw new TypeError('updateMany: items must be an iterable or an async iterable');
  return new Run(client, items, checkUpdateManyOptions(options));
}

const isIterable = (value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function');

class Run<I extends UpdateItem> implements UpdateManyRun<I> {
  private readonly counts = new Counts();
  private readonly pacing: Pacing;
  private readonly adaptive: AdaptiveConcurrency;
  /** Items running (sent, paced or waiting to retry). */
  private active = 0;
  /** Aborted to stop pulling and starting attempts. */
  private readonly stop = new AbortController();
  /** Aborted to cut requests on the wire short. */
  private readonly hard = new AbortController();
  private readonly results: UpdateManyResult<I>[] = [];
  private failure: { error: unknown } | undefined;
  private finished = false;
  private pumping: Promise<void> | undefined;
  /** The consumer waiting for a result, and the pump waiting for the consumer. */
  private wakeConsumer: (() => void) | undefined;
  private wakePump: (() => void) | undefined;

  constructor(
    private readonly client: BatchClient,
    private readonly items: Iterable<I> | AsyncIterable<I>,
    private readonly settings: UpdateManySettings,
  ) {
    this.pacing = new Pacing(settings);
    this.adaptive = new AdaptiveConcurrency(settings.concurrency, () => {
      this.wake('pump');
      this.report();
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  progress(): BatchProgress {
    return this.counts.snapshot(this.adaptive, this.pacing.discoveredLimit);
  }

  async next(): Promise<IteratorResult<UpdateManyResult<I>, undefined>> {
    this.pumping ??= this.pump();
    for (;;) {
      const result = this.results.shift();
      if (result !== undefined) {
        this.wake('pump');
        return { value: result, done: false };
      }
      if (this.failure !== undefined) {
        const { error } = this.failure;
        this.failure = undefined;
        this.finished = true;
        throw error;
      }
      if (this.finished) return { value: undefined, done: true };
      await new Promise<void>((resolve) => {
        this.wakeConsumer = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<UpdateManyResult<I>, undefined>> {
    this.halt(true, new DOMException('the caller stopped reading the results', 'AbortError'));
    this.results.length = 0;
    await this.pumping;
    this.finished = true;
    return { value: undefined, done: true };
  }

  private halt(hard: boolean, reason: unknown): void {
    this.stop.abort(reason);
    if (hard) this.hard.abort(reason);
    this.wake('pump');
  }

  private wake(who: 'pump' | 'consumer'): void {
    const wake = who === 'pump' ? this.wakePump : this.wakeConsumer;
    if (who === 'pump') this.wakePump = undefined;
    else this.wakeConsumer = undefined;
    wake?.();
  }

  private async pump(): Promise<void> {
    const { signal, inFlight } = this.settings;
    const onAbort = () => this.halt(inFlight === 'abort', signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    const stopListening = this.client.on('response', (event) => this.pacing.learn(event.rateLimit));
    const iterator =
      Symbol.asyncIterator in this.items
        ? this.items[Symbol.asyncIterator]()
        : (this.items as Iterable<I>)[Symbol.iterator]();
    let exhausted = false;
    try {
      for (let index = 0; !this.stop.signal.aborted; index += 1) {
        await this.slotFree();
        if (this.stop.signal.aborted) break;
        const next = await iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        this.counts.started += 1;
        this.active += 1;
        this.runItem(index, next.value)
          .catch((error: unknown) => this.fatal(error))
          .finally(() => {
            this.active -= 1;
            this.wake('pump');
          });
      }
    } catch (error) {
      exhausted = true;
      this.fatal(error);
    }
    try {
      if (!exhausted) await iterator.return?.();
    } catch (error) {
      this.fatal(error);
    }
    while (this.active > 0) await this.waitForPump();
    stopListening();
    signal?.removeEventListener('abort', onAbort);
    this.finished = true;
    this.wake('consumer');
  }

  /** Waits until a slot is free and the results not yet read leave room (or the batch stops). */
  private async slotFree(): Promise<void> {
    while (!this.stop.signal.aborted) {
      if (this.active < this.adaptive.current && this.results.length < this.settings.concurrency) return;
      await this.waitForPump();
    }
  }

  /** Until an item ends, a result is read, the concurrency changes or the batch stops. */
  private waitForPump(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wakePump = resolve;
    });
  }

  private async runItem(index: number, item: I): Promise<void> {
    // A malformed item (null, a missing field) is the client's ValidationError, like any bad value.
    const { account, documentNumber, body } = (item ?? {}) as Partial<UpdateItem>;
    const outcome = await attemptUntilDone(
      (call) =>
        this.client.updateNaturalPerson({ ...call, account, documentNumber, body } as Parameters<
          BatchClient['updateNaturalPerson']
        >[0]),
      {
        pacing: this.pacing,
        retry: this.settings.retry,
        method: operations.updateNaturalPerson.method,
        stop: this.stop.signal,
        callSignal: this.hard.signal,
        sending: () => this.adaptive.send(),
        answered: (attempt, error) => this.answered(attempt, error),
      },
    );
    if (outcome === undefined) {
      this.counts.stopped += 1;
      this.report();
      return;
    }
    if (outcome.ok) this.counts.ok += 1;
    else this.counts.failed += 1;
    if (!this.hard.signal.aborted) this.results.push(resultOf(index, item, outcome));
    this.wake('consumer');
    this.report();
  }

  private answered(attempt: number, error: BaasError | undefined): void {
    // A ValidationError was raised before anything was sent.
    if (error instanceof ValidationError) return;
    this.counts.request();
    if (error instanceof ApiError) {
      this.pacing.learn(error.rateLimit);
      if (OVERLOADED.has(error.status)) {
        this.counts.overloaded += 1;
        this.adaptive.overloaded(attempt);
        return;
      }
    }
    // A timeout or a network failure says nothing either way about the load.
    if (error === undefined || error instanceof ApiError) this.adaptive.answered();
  }

  /** A failure that is not an item's (the input or the limiter threw): the batch stops and rethrows it. */
  private fatal(error: unknown): void {
    this.failure ??= { error };
    this.halt(true, error);
    this.wake('consumer');
  }

  private report(): void {
    const hook = this.settings.onProgress;
    if (hook === undefined) return;
    try {
      hook(this.progress());
    } catch {
      // The hook is the caller's: its failure must not stop the batch.
    }
  }
}
