// Ctrl-C during a batch: the first SIGINT or SIGTERM stops taking new work and lets what is in
// flight finish (the journal then holds every outcome); a second one gives up on what is in flight.

// A closed standard output or error (a pipe into `head`) is a first stop too, said as SIGPIPE.

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number] | 'SIGPIPE';

export class Stopper {
  /** The first signal received, if any. */
  signal: StopSignal | undefined;
  /** Aborted by the first signal: no new work is taken. */
  readonly soft = new AbortController();
  private readonly handlers = STOP_SIGNALS.map((name) => [name, () => this.receive(name)] as const);

  private readonly closed: AbortSignal | undefined;
  private readonly onClosed = () => this.receive('SIGPIPE');

  constructor(
    private readonly onFirst: (signal: StopSignal) => void,
    private readonly onSecond: (signal: StopSignal) => void,
    /** Aborted when the command's output was closed: a stop like a first Ctrl-C. */
    closed?: AbortSignal,
  ) {
    for (const [name, handler] of this.handlers) process.on(name, handler);
    this.closed = closed;
    if (closed?.aborted) queueMicrotask(this.onClosed);
    else closed?.addEventListener('abort', this.onClosed, { once: true });
  }

  get stopping(): boolean {
    return this.signal !== undefined;
  }

  private receive(name: StopSignal): void {
    // The output closing again (stderr after stdout) is no second Ctrl-C.
    if (name === 'SIGPIPE' && this.signal !== undefined) return;
    if (this.signal !== undefined) {
      this.onSecond(this.signal);
      return;
    }
    this.signal = name;
    this.soft.abort(new DOMException(`stopped by ${name}`, 'AbortError'));
    this.onFirst(name);
  }

  /** Stops listening: the process's own handling of the signals is back. */
  release(): void {
    for (const [name, handler] of this.handlers) process.off(name, handler);
    this.closed?.removeEventListener('abort', this.onClosed);
  }
}
