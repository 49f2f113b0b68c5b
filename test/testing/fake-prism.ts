// A fake Prism process for startMock's tests: what `spawn` returns, driven by the test (it prints,
// exits, ignores SIGTERM), so the start, stop and failure paths run in milliseconds and no process
// is left behind. Install with `vi.mock('node:child_process', fakeChildProcessModule)`.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

export class FakePrism extends EventEmitter {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly channel = {
    unrefs: 0,
    unref: () => {
      this.channel.unrefs += 1;
    },
  };
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** Every signal sent, in order. */
  readonly signals: string[] = [];
  /** The signals this process dies of; SIGTERM and SIGKILL unless a test says otherwise. */
  diesOf = new Set(['SIGTERM', 'SIGKILL']);

  constructor(
    readonly command: string,
    readonly args: string[],
    readonly options: unknown,
  ) {
    super();
  }

  /** The value of `--port`, as Prism would read it. */
  get port(): number {
    return Number(this.args[this.args.indexOf('--port') + 1]);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    this.signals.push(signal);
    if (this.diesOf.has(signal)) setImmediate(() => this.exit(null, signal));
    return true;
  }

  print(text: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    this[stream].write(text);
  }

  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    if (this.exitCode !== null || this.signalCode !== null) return;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

/** The processes spawned so far, oldest first. */
export const spawned: FakePrism[] = [];
let taken = 0;
const waiting: ((child: FakePrism) => void)[] = [];

/** The next process spawned that no test has taken yet, now or once it is spawned. */
export function nextChild(): Promise<FakePrism> {
  if (taken < spawned.length) return Promise.resolve(spawned[taken++]!);
  return new Promise((resolve) =>
    waiting.push((child) => {
      taken += 1;
      resolve(child);
    }),
  );
}

export function fakeSpawn(command: string, args: string[], options: unknown): FakePrism {
  const child = new FakePrism(command, args, options);
  spawned.push(child);
  waiting.shift()?.(child);
  return child;
}

/** Forgets the processes of the last test (each has exited by then). */
export function resetSpawned(): void {
  spawned.length = 0;
  taken = 0;
  waiting.length = 0;
}

/** Lets stream events and setImmediate callbacks run (neither is faked by the tests' fake timers). */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
