// What a batch run must undo (locks, open files, the client, signal handlers, the progress line),
// in one list: each step is added as the thing is taken, and the list runs once, in reverse, on
// every way out of the run (success, error, a signal). The shape of AsyncDisposableStack, which
// Node 20 does not have: `add` is its `defer`, and the function it returns disposes of one thing
// early (a journal closed before the summary is printed) without running it twice.

export class DisposeList {
  private readonly steps: Array<{ run: () => unknown; ran: boolean }> = [];
  private disposed = false;

  /** Adds a step; the function returned runs it now (once: the list skips it then). */
  add(step: () => unknown): () => Promise<void> {
    if (this.disposed) throw new Error('DisposeList: a step was added after the list ran');
    const entry = { run: step, ran: false };
    this.steps.push(entry);
    return async () => {
      if (entry.ran) return;
      entry.ran = true;
      await entry.run();
    };
  }

  /**
   * Runs `body`, then every step, however `body` ends. When `body` throws, its error is the one
   * thrown (a step failing after it is not what the user must hear about first).
   */
  async disposeAfter<T>(body: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await body();
    } catch (error) {
      await this.dispose().catch(() => undefined);
      throw error;
    }
    await this.dispose();
    return result;
  }

  /**
   * Runs every step not yet run, last added first. Each runs even when one before it failed; the
   * first failure is thrown once all have run.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    let failed = false;
    let failure: unknown;
    for (const entry of this.steps.reverse()) {
      if (entry.ran) continue;
      entry.ran = true;
      try {
        await entry.run();
      } catch (error) {
        if (!failed) failure = error;
        failed = true;
      }
    }
    if (failed) throw failure;
  }
}
