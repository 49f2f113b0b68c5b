// An async iterator whose code loads on the first `next()`: `pixKeys()` hands one out at once, and
// the page walker (pagination.ts), which only its users need, loads with the first page. After the
// load each `next()` is one call to the walker's own, which keeps its per-key cost (npm run bench).
const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

export function lazyIterator<T>(load: () => Promise<AsyncIterator<T, undefined>>): AsyncIterableIterator<T> {
  let inner: AsyncIterator<T, undefined> | undefined;
  let loading: Promise<AsyncIterator<T, undefined>> | undefined;
  // `return()` before the walker loaded: nothing was fetched, and nothing will be.
  let stopped = false;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (inner) return inner.next();
      if (stopped) return Promise.resolve(DONE);
      loading ??= load().catch((error: unknown) => {
        // A chunk that failed to load is tried again on the next `next()`.
        loading = undefined;
        throw error;
      });
      return loading.then((walker) => (stopped ? DONE : (inner = walker).next()));
    },
    return() {
      if (inner) return inner.return ? inner.return() : Promise.resolve(DONE);
      stopped = true;
      return Promise.resolve(DONE);
    },
  };
}
