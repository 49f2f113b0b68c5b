// The one way the command line writes to the terminal (standard output and standard error), whatever
// they are: a terminal, a file, a pipe, a slow reader, or a pipe whose reader went away (`| head`).
// - Every line is masked and its control characters escaped (src/redact.ts `redactMessage`), each
//   physical line on its own: a file name or provider text can neither forge a line, move the cursor,
//   nor show a CPF. (The progress line's own redraw codes are written by ./batch/progress.ts.) The one
//   exception is `outSynthetic`, for the sandbox's banner: its synthetic tokens, client secrets and
//   CPFs are what it is for, so they are shown, controls still escaped.
// - Back-pressure: `drained()` resolves once what was written has left the process's buffer; the
//   commands that write per line (update-many's problems, its lines) wait for it, so memory stays flat
//   however slow the reader is.
// - A closed output (EPIPE: the reader exited) is no crash: nothing more is written to it, `closed`
//   aborts (the batch commands stop as on a first Ctrl-C: no new work, journal flushed), and the
//   command exits EXIT_OUTPUT_CLOSED, which claims neither success nor drift nor failure.
import { escapeControls, redactMessage } from '../redact.js';
import type { CommandContext } from './command.js';

/** A file name, or any text from outside, as it may be shown on one terminal line: masked, controls escaped. */
export const shownPath = (path: string): string => redactMessage(path);

/** Each physical line of `text`, masked and escaped: a line break in it stays a line break between safe lines. */
export const terminalText = (text: string): string =>
  text
    .split('\n')
    .map((part) => redactMessage(part))
    .join('\n');

/** The parts of a Node stream this needs (process.stdout, process.stderr, or a test's stream). */
export interface OutputStream {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  on(event: 'error' | 'drain' | 'close', listener: (error?: Error) => void): unknown;
  off(event: 'error' | 'drain' | 'close', listener: (error?: Error) => void): unknown;
  readonly writableNeedDrain?: boolean;
  readonly destroyed?: boolean;
  /** Set at once when a write failed (the 'error' event comes a tick later). */
  readonly errored?: Error | null;
}

export interface Terminal extends CommandContext {
  out(line: string): void;
  err(line: string): void;
  outSynthetic(line: string): void;
  drained(): Promise<void>;
  /** Aborted once standard output or error is closed under the command. */
  closed: AbortSignal;
}

/** The command line's terminal over two streams (default: the process's own). */
export function terminal(
  stdout: OutputStream = process.stdout,
  stderr: OutputStream = process.stderr,
  closedBy: AbortController = new AbortController(),
): Terminal {
  const gone = new Set<OutputStream>();
  const close = (stream: OutputStream, error: unknown) => {
    gone.add(stream);
    if (!closedBy.signal.aborted) closedBy.abort(error);
  };
  const watch = (stream: OutputStream) => {
    // Any error of a standard stream (EPIPE: its reader exited) ends writing to it, never the process.
    stream.on('error', (error) => close(stream, error));
  };
  watch(stdout);
  if (stderr !== stdout) watch(stderr);
  const write = (stream: OutputStream, line: string, shown: (line: string) => string = terminalText) => {
    if (stream.errored || stream.destroyed) close(stream, stream.errored);
    if (gone.has(stream)) return;
    // The callback takes the error too: a write on a closed pipe is never an uncaught exception.
    stream.write(`${shown(line)}\n`, (error) => {
      if (error) close(stream, error);
    });
  };
  const drainedOne = (stream: OutputStream): Promise<void> => {
    if (gone.has(stream) || !stream.writableNeedDrain) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('close', done);
        stream.off('error', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
      stream.on('error', done);
    });
  };
  return {
    out: (line) => write(stdout, line),
    err: (line) => write(stderr, line),
    outSynthetic: (line) => write(stdout, line, escapeControls),
    drained: async () => {
      await drainedOne(stdout);
      await drainedOne(stderr);
      for (const stream of [stdout, stderr]) if (stream.errored) close(stream, stream.errored);
    },
    closed: closedBy.signal,
  };
}
