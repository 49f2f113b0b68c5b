// What a subcommand is: its name, its flags (each declared once, with its help), its notes, and what
// it does. A subcommand is one file exporting one `defineCommand(...)`, listed once in ./commands.ts.
// The dispatcher (./main.ts) parses every command's arguments (./parse.ts) and prints every help
// (./help.ts) from these declarations alone.
import { UsageError } from '../usage-error.js';

export { UsageError };

/** One flag: how it is parsed (node:util parseArgs) and how `--help` shows it. */
export interface Flag {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's name in the help: N, FILE, URL, MS. */
  value?: string;
  /** The heading it is listed under in the help, in the order headings first appear (default `Options:`). */
  group?: string;
  /** What it does and its default: the first line beside the flag, the others under it. */
  help: readonly string[];
  /**
   * The library option this flag gives (`--accounts` gives createSandbox's `accountsPerClient`): a
   * library error's `option` is said as this flag, from this declaration alone.
   */
  sets?: string;
}

export type Flags = Readonly<Record<string, Flag>>;
type Value<F> = F extends { type: 'boolean' } ? boolean : string;
/** The parsed values of a command's flags, typed from their declaration. */
export type Values<O extends Flags> = { [K in keyof O]?: Value<O[K]> };

export interface CommandContext {
  /** One line to standard output (what a user asked for: URLs, request log). */
  out(line: string): void;
  /** One line to standard error (diagnostics). */
  err(line: string): void;
  /**
   * One line of the sandbox's own synthetic credentials and accounts, printed on purpose so that a
   * developer can use them (the sandbox's banner, and nothing else): to standard output with its
   * control characters escaped but nothing masked, since `out` would mask the very tokens and CPFs the
   * line is there to show. Default: `out`.
   */
  outSynthetic?(line: string): void;
  /** The environment secrets are read from (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** What the command sends its requests with (default: the global fetch); tests give a service in process. */
  fetch?: typeof fetch;
  /** Resolves once what was written has left the process (./output.ts): back-pressure for commands that write per line. */
  drained?: () => Promise<void>;
  /** Aborted when standard output or error was closed under the command (a pipe into `head`): stop, quietly. */
  closed?: AbortSignal;
  /**
   * Where a batch command's progress goes (default: process.stderr, a bar on a terminal): a caller
   * in process, such as a test, gives its own, so the line lands with the rest of what it captured.
   */
  progress?: { isTTY?: boolean | undefined; write(text: string): unknown };
}

export interface Command<O extends Flags = Flags> {
  name: string;
  /** One line for the command list of `--help`. */
  summary: string;
  /** The short synopsis after the command name: the required flags, then `[options]`. */
  usage: string;
  options: O;
  /** Lines after the flags in `<command> --help`: what it prints, what it needs, its exit status. */
  notes?: readonly string[];
  /** Resolves with the exit code once the command is done (for a server: once it was stopped). */
  run(values: Values<O>, context: CommandContext): Promise<number>;
}

/** Identity with types: `values` in `run` is typed from `options`. */
export const defineCommand = <const O extends Flags>(command: Command<O>): Command<O> => command;
