// In-process helpers for the command-line tests: captured output, and the stop signals a server
// command listens for, delivered to its own handlers only (never to the test runner's).
import type { CommandContext } from '../../src/cli/command.js';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

export interface Captured extends CommandContext {
  stdout: string[];
  stderr: string[];
  /** What a batch command wrote as progress (standard error, not a terminal), apart from its lines. */
  progressWritten: string[];
}

export function capture(): Captured {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const progressWritten: string[] = [];
  return {
    stdout,
    stderr,
    progressWritten,
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    progress: { isTTY: false, write: (text) => progressWritten.push(text) },
  };
}

type Listener = (...args: unknown[]) => void;

/** The listeners of each stop signal now, to tell the ones a command adds later. */
export function signalListeners(): Record<StopSignal, Listener[]> {
  return Object.fromEntries(STOP_SIGNALS.map((signal) => [signal, process.listeners(signal) as Listener[]])) as Record<
    StopSignal,
    Listener[]
  >;
}

/** The listeners added to `signal` since `before`. */
export function addedListeners(before: Record<StopSignal, Listener[]>, signal: StopSignal): Listener[] {
  return (process.listeners(signal) as Listener[]).filter((listener) => !before[signal].includes(listener));
}

/** Calls the handlers a command added for `signal` since `before`, as the process would on that signal. */
export function sendStop(before: Record<StopSignal, Listener[]>, signal: StopSignal): number {
  const added = addedListeners(before, signal);
  for (const listener of added) listener(signal);
  return added.length;
}

/** Resolves once `check` is true, polling on the event loop (no clock involved). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
