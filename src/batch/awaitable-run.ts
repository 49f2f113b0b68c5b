// What updateMany and exportKeys return, as openai-node's PagePromise is: a promise of the run's
// summary (`await` sends everything and resolves once every item is done) that is also an async
// iterable of the results as they complete (`for await`). It extends Promise, so `.then`, `.catch`,
// `.finally`, `Promise.all` and a linter's floating-promise rule treat it as the promise it is; its
// `then` is overridden, so nothing starts before it is awaited or iterated.
//
// A synchronous `for` over it is a TypeError that says what to write instead. That method is not in
// the public types, so TypeScript refuses the `for` before it runs.

/** The work behind a run: its one iterator of results, and its summary once every item is done. */
export interface RunWork<R, S> {
  /** The results as they complete; pulling them is what drives the run. */
  readonly iterator: AsyncIterableIterator<R>;
  /** Settles once the run has ended (every item done, stopped, or failed): its summary, or its error. */
  settled(): Promise<S>;
}

export class AwaitableRun<R, S> extends Promise<S> {
  // `then` makes plain promises, so this constructor is never called back with an executor.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #work: RunWork<R, S>;
  readonly #name: string;
  #use: 'none' | 'iterated' | 'awaited' = 'none';
  #summary: Promise<S> | undefined;

  constructor(name: string, work: RunWork<R, S>) {
    super((resolve) => resolve(undefined as S));
    this.#name = name;
    this.#work = work;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<R> {
    if (this.#use === 'awaited')
      throw new TypeError(
        `${this.#name}: this run is already awaited, which reads its results without keeping them. ` +
          'To have each result, iterate it first (`for await (const result of run)`) and await it after for the summary.',
      );
    this.#use = 'iterated';
    return this.#work.iterator;
  }

  /** Not iterable synchronously: the results arrive as requests complete. */
  [Symbol.iterator](): never {
    throw new TypeError(
      `${this.#name}(...) is asynchronous, so a plain \`for\` cannot read it: ` +
        `use \`for await (const result of ${this.#name}(...))\` for each result as it completes, ` +
        `or \`await ${this.#name}(...)\` for the summary once everything is done.`,
    );
  }

  // biome-ignore lint/suspicious/noThenProperty: a run is meant to be awaited; this is the point of the class.
  override then<A = S, B = never>(
    onfulfilled?: ((value: S) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#settle().then(onfulfilled, onrejected);
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<S | B> {
    return this.#settle().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<S> {
    return this.#settle().finally(onfinally);
  }

  #settle(): Promise<S> {
    if (this.#summary !== undefined) return this.#summary;
    if (this.#use === 'iterated') {
      // Someone reads the results: the summary is the run's end, whoever drives it.
      this.#summary = this.#work.settled();
    } else {
      this.#use = 'awaited';
      this.#summary = drain(this.#work);
    }
    return this.#summary;
  }
}

/** Awaited without a `for await`: read every result (each is counted in the summary) until the end. */
async function drain<R, S>(work: RunWork<R, S>): Promise<S> {
  try {
    for (;;) if ((await work.iterator.next()).done) break;
  } catch {
    // The run's own failure: settled() rejects with it, once the items under way have ended.
  }
  return work.settled();
}
