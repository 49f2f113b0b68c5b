// updateMany: many customers updated through one client, lazily, at a bounded concurrency that a
// 429 or 503 lowers and good answers raise again, each request paced (rate, discovered limit,
// limiter). The gate is p-limit (bundled into dist/ by scripts/build.mjs, so no runtime dependency):
// its concurrency is set at run time as the adaptive concurrency moves. The input is pulled one item
// at a time, the next only once the last has its slot, so memory follows the concurrency, not the
// input; a lowered concurrency simply starts nothing until enough items have finished.
import pLimit, { type LimitFunction } from 'p-limit';
import type { UpdateNaturalPersonInput } from '../client/baas-client.js';
import type { UpdateResult } from '../types.js';
import type { Tried } from '../transport/pipeline.js';
import { AdaptiveConcurrency } from './adaptive.js';
import { sendPaced, statedRateLimit } from './attempts.js';
import { AwaitableRun, type RunWork } from './awaitable-run.js';
import { checkUpdateManyOptions, type UpdateManyOptions, type UpdateManySettings } from './options.js';
import { Pacing } from './pacing.js';
import { type BatchProgress, Counts } from './progress.js';
import { resultOf, type UpdateFailure, type UpdateItem, type UpdateManyResult } from './results.js';

/** What updateMany needs of a client: `createBaasClient`'s does (any promise of the result will do). */
export interface BatchClient {
  /** Updates one customer, as the client's `updateNaturalPerson` does. */
  updateNaturalPerson(input: UpdateNaturalPersonInput): Promise<UpdateResult | undefined>;
}

/** How many failed results an awaited run's summary keeps (`failed` counts them all). */
const FAILURES_KEPT = 100;

/** What `await updateMany(...)` resolves with, once every item is done: the final counts and the failures. */
export interface UpdateManySummary<I extends UpdateItem = UpdateItem> extends BatchProgress {
  /**
   * The failed results in completion order, each with its `index`, `item` and `error`: the first
   * 100; `failed` counts them all.
   */
  failures: UpdateFailure<I>[];
}

/**
 * A run of updateMany: use it one of two ways.
 *
 * - `await run` (or `.then`): sends every item and resolves with the {@link UpdateManySummary} once
 *   all are done; it rejects with the input's or the limiter's own error (a failed item is not an error
 *   of the run: it is counted in `failed` and listed in `failures`).
 * - `for await (const result of run)`: each result as it completes; `await run` after the loop gives
 *   the summary.
 *
 * A plain `for` is a TypeError (and a type error). Nothing is pulled or sent before one of the two.
 */
export interface UpdateManyRun<I extends UpdateItem = UpdateItem>
  extends Promise<UpdateManySummary<I>>,
    AsyncIterable<UpdateManyResult<I>> {
  /** The results as they complete (`for await`); a TypeError once the run was awaited without it. */
  [Symbol.asyncIterator](): AsyncIterableIterator<UpdateManyResult<I>>;
  /** The next result (what `for await` calls). */
  next(): Promise<IteratorResult<UpdateManyResult<I>, undefined>>;
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
 * - Each item is checked by the client before it is sent: a bad one yields a BaasValidationError and
 *   sends nothing.
 * - Every request waits for its turn: `rate`, the provider's own limit once a 429's `RateLimit-Policy`
 *   header field states one, and `limiter`. Retries are made here, not by the client, so they are
 *   paced too; `Retry-After` is honoured.
 * - A 429 or 503 halves the concurrency (at least 1); each round of good answers (as many as the
 *   concurrency) raises it by one, up to `concurrency`.
 * - Aborting `signal` stops pulling and starting attempts; with `inFlight: 'finish'` (the default)
 *   the requests already sent finish and yield their results, an item waiting to retry yields its last
 *   error, and an item not yet sent yields nothing (`progress().stopped` counts them). Breaking out
 *   of the loop aborts everything still running.
 *
 * If the input throws, or `limiter` fails other than by the abort, nothing more is pulled or sent,
 * the requests on the wire finish and yield their results, and then the loop throws that error.
 *
 * Options are checked at once: a RangeError or TypeError names the option and its rule.
 */
export function updateMany<I extends UpdateItem>(
  client: BatchClient,
  items: Iterable<I> | AsyncIterable<I>,
  options?: UpdateManyOptions,
): UpdateManyRun<I> {
  if (typeof client?.updateNaturalPerson !== 'function')
    throw new TypeError('updateMany: client must be a client of createBaasClient');
  if (!isIterable(items)) throw new TypeError('updateMany: items must be an iterable or an async iterable');
  return new UpdateManyRunPromise(new Run(client, items, checkUpdateManyOptions(options)));
}

class UpdateManyRunPromise<I extends UpdateItem>
  extends AwaitableRun<UpdateManyResult<I>, UpdateManySummary<I>>
  implements UpdateManyRun<I>
{
  readonly #run: Run<I>;

  constructor(run: Run<I>) {
    super('updateMany', run);
    this.#run = run;
  }

  next(): Promise<IteratorResult<UpdateManyResult<I>, undefined>> {
    return this[Symbol.asyncIterator]().next();
  }

  return(): Promise<IteratorResult<UpdateManyResult<I>, undefined>> {
    return this.#run.return();
  }

  progress(): BatchProgress {
    return this.#run.progress();
  }
}

const isIterable = (value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function');

class Run<I extends UpdateItem>
  implements RunWork<UpdateManyResult<I>, UpdateManySummary<I>>, AsyncIterableIterator<UpdateManyResult<I>>
{
  private readonly counts = new Counts();
  private readonly failures: UpdateFailure<I>[] = [];
  /** The input's or the limiter's error, kept for the summary (the iteration throws it once). */
  private runError: { error: unknown } | undefined;
  private ended!: () => void;
  private readonly end = new Promise<void>((resolve) => {
    this.ended = resolve;
  });
  private readonly pacing: Pacing;
  private readonly adaptive: AdaptiveConcurrency;
  /** The gate: items holding a slot are running (sent, paced or waiting to retry). */
  private readonly limit: LimitFunction;
  /** Every item handed to the gate, until it ends or the gate drops it unstarted. */
  private readonly handedOver = new Set<Promise<void>>();
  /** Aborted to stop pulling and starting attempts. */
  private readonly stop = new AbortController();
  /** Aborted to cut requests on the wire short. */
  private readonly hard = new AbortController();
  /**
   * Each running item's own pair of signals, aborted by `halt` with the batch's: an item listens to its
   * own, so no signal gathers a listener per item (Node warned past 10, at any --concurrency above it).
   */
  private readonly running = new Set<{ stop: AbortController; hard: AbortController }>();
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
    // rejectOnClear: an item dropped from the queue on a stop settles, so the pump's wait for the
    // items handed over ends.
    this.limit = pLimit({ concurrency: settings.concurrency, rejectOnClear: true });
    this.adaptive = new AdaptiveConcurrency(settings.concurrency, (concurrency) => {
      this.limit.concurrency = concurrency;
      this.report();
    });
  }

  get iterator(): this {
    return this;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  progress(): BatchProgress {
    return this.counts.snapshot(this.adaptive, this.pacing.discoveredLimit);
  }

  async settled(): Promise<UpdateManySummary<I>> {
    this.pumping ??= this.pump();
    await this.end;
    if (this.runError !== undefined) throw this.runError.error;
    return { ...this.progress(), failures: [...this.failures] };
  }

  async next(): Promise<IteratorResult<UpdateManyResult<I>, undefined>> {
    this.pumping ??= this.pump();
    for (;;) {
      const result = this.results.shift();
      if (result !== undefined) {
        this.wake('pump');
        return { value: result, done: false };
      }
      if (this.finished) {
        // The input's or the limiter's own error, once the items under way have yielded their results.
        const failure = this.failure;
        this.failure = undefined;
        if (failure !== undefined) throw failure.error;
        return { value: undefined, done: true };
      }
      await new Promise<void>((resolve) => {
        this.wakeConsumer = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<UpdateManyResult<I>, undefined>> {
    this.halt(true, new DOMException('the caller stopped reading the results', 'AbortError'));
    this.results.length = 0;
    this.pumping ??= Promise.resolve().then(() => this.ended());
    await this.pumping;
    this.finished = true;
    return { value: undefined, done: true };
  }

  private halt(hard: boolean, reason: unknown): void {
    this.stop.abort(reason);
    for (const item of this.running) {
      item.stop.abort(reason);
      if (hard) item.hard.abort(reason);
    }
    // The item pulled ahead and still waiting for a slot is dropped: it was never started.
    this.limit.clearQueue();
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
    const iterator =
      Symbol.asyncIterator in this.items
        ? this.items[Symbol.asyncIterator]()
        : (this.items as Iterable<I>)[Symbol.iterator]();
    let exhausted = false;
    try {
      for (let index = 0; !this.stop.signal.aborted; index += 1) {
        await this.roomForResults();
        if (this.stop.signal.aborted) break;
        const next = await iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        await this.handOver(index, next.value);
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
    while (this.handedOver.size > 0) await Promise.all(this.handedOver);
    signal?.removeEventListener('abort', onAbort);
    this.finished = true;
    this.ended();
    this.wake('consumer');
  }

  /** Waits until the results not yet read leave room (or the batch stops). */
  private async roomForResults(): Promise<void> {
    while (!this.stop.signal.aborted && this.results.length >= this.settings.concurrency) await this.waitForPump();
  }

  /**
   * Hands an item to the gate; resolves once it holds a slot (it is then running) or the batch stops,
   * so at most one item pulled from the input waits for a slot.
   */
  private handOver(index: number, item: I): Promise<void> {
    // Stopped while it was being pulled: dropped like one waiting for a slot, never started.
    if (this.stop.signal.aborted) return Promise.resolve();
    return new Promise<void>((slotTaken) => {
      const stopped = () => slotTaken();
      this.stop.signal.addEventListener('abort', stopped, { once: true });
      const handed = this.limit(async () => {
        this.stop.signal.removeEventListener('abort', stopped);
        slotTaken();
        this.counts.start();
        await this.runItem(index, item).catch((error: unknown) => this.fatal(error));
      }).catch(() => {
        // Dropped from the queue by a stop (clearQueue) before it held a slot: never started.
        this.stop.signal.removeEventListener('abort', stopped);
      });
      this.handedOver.add(handed);
      void handed.finally(() => this.handedOver.delete(handed));
    });
  }

  /** Until a result is read or the batch stops. */
  private waitForPump(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wakePump = resolve;
    });
  }

  private async runItem(index: number, item: I): Promise<void> {
    // A malformed item (null, a missing field) is the client's BaasValidationError, like any bad value.
    const { account, documentNumber, body } = (item ?? {}) as Partial<UpdateItem>;
    const own = { stop: new AbortController(), hard: new AbortController() };
    if (this.stop.signal.aborted) own.stop.abort(this.stop.signal.reason);
    if (this.hard.signal.aborted) own.hard.abort(this.hard.signal.reason);
    this.running.add(own);
    const outcome = await sendPaced(
      (call) =>
        // An identifier as people write it (`529.982.247-25`) is sent in the contract's form by the
        // client itself (src/validation/identifiers.ts).
        this.client.updateNaturalPerson({
          ...call,
          account,
          documentNumber,
          body,
        } as Parameters<BatchClient['updateNaturalPerson']>[0]),
      {
        pacing: this.pacing,
        retry: this.settings.retry,
        stop: own.stop.signal,
        callSignal: own.hard.signal,
        sending: () => this.adaptive.send(),
        answered: (number, tried) => this.answered(number, tried),
      },
    ).finally(() => this.running.delete(own));
    if (outcome === undefined) {
      this.counts.stopped += 1;
      this.report();
      return;
    }
    if (outcome.ok) this.counts.ok += 1;
    else this.counts.failed += 1;
    const result = resultOf(index, item, outcome);
    if (!result.ok && this.failures.length < FAILURES_KEPT) this.failures.push(result);
    if (!this.hard.signal.aborted) this.results.push(result);
    this.wake('consumer');
    this.report();
  }

  /** What each attempt came to (the client's retry loop tells the batch's policy, retries included). */
  private answered(number: number, tried: Tried): void {
    this.counts.request();
    const { response } = tried;
    // A timeout or a network failure says nothing either way about the load.
    if (response === undefined) return;
    this.pacing.learn(statedRateLimit(tried));
    if (OVERLOADED.has(response.status)) {
      this.counts.overloaded += 1;
      this.adaptive.overloaded(number);
      return;
    }
    this.adaptive.answered();
  }

  /**
   * A failure that is not an item's (the input or the limiter threw): nothing more is pulled or sent,
   * the requests on the wire finish and yield their results, then the iteration throws it.
   */
  private fatal(error: unknown): void {
    this.failure ??= { error };
    this.runError ??= { error };
    this.halt(false, error);
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
