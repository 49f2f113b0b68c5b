// What a subcommand is: its name, its options (node:util parseArgs), its help, and what it does.
// A subcommand is one file exporting one `defineCommand(...)`, listed once in ./commands.ts.
import type { ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Value<O> = O extends { type: 'boolean' } ? boolean : string;
/** The parsed values of a command's options, typed from their declaration. */
export type Values<O extends Options> = { [K in keyof O]?: Value<O[K]> };

export interface CommandContext {
  /** One line to standard output (what a user asked for: URLs, request log). */
  out(line: string): void;
  /** One line to standard error (diagnostics). */
  err(line: string): void;
}

export interface Command<O extends Options = Options> {
  name: string;
  /** One line for the command list of `--help`. */
  summary: string;
  /** Arguments after the command name, e.g. `[--port N] [--host H]`. */
  usage: string;
  /** One line per option, shown by `<command> --help`. */
  details: string[];
  options: O;
  /**
   * The command parses its own arguments (a command that has its own parser, such as verify): the
   * dispatcher handles `--help` and passes every other argument on as a positional, untouched.
   */
  ownArguments?: boolean;
  /** Resolves with the exit code once the command is done (for a server: once it was stopped). */
  run(values: Values<O>, positionals: string[], context: CommandContext): Promise<number>;
}

/** Identity with types: `values` in `run` is typed from `options`. */
export const defineCommand = <const O extends Options>(command: Command<O>): Command<O> => command;

/** A usage error: the command line prints it with a hint at `--help` and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
