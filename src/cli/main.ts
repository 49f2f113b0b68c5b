// The command line's dispatcher: global flags, the subcommand, its flags, its exit code. A usage error
// is printed last, after the command's short usage line and a pointer to its `--help`, so that it is
// what stays on the screen.
import { redactText } from '../redact.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import { type Command, type CommandContext, UsageError } from './command.js';
import { COMMANDS } from './commands.js';
import { commandHelp, usageLine } from './help.js';
import { closestFlag, parseFlags } from './parse.js';
import { EXIT, EXIT_OUTPUT_CLOSED } from './connection/exit-codes.js';
import { MissingPeerError } from './peers.js';
import { terminal } from './output.js';

export { commandHelp };

// Made when first used: importing main (as tests do) touches no standard stream.
let stdio: CommandContext | undefined;
const processTerminal = (): CommandContext => {
  stdio ??= terminal();
  return stdio;
};

export function mainHelp(commands: readonly Command[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `${PACKAGE_NAME} ${PACKAGE_VERSION}: the BaaS natural-person update and PIX key listing contract`,
    '',
    `Usage: ${PACKAGE_NAME} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    "  --help, -h     this help; `<command> --help` for a command's own",
    '  --version, -v  the version of the package (and of the contract)',
  ].join('\n');
}

const isUsageError = (error: unknown): boolean =>
  error instanceof UsageError ||
  Boolean((error as { code?: string } | null | undefined)?.code?.startsWith?.('ERR_PARSE_ARGS'));

/** Runs the command line on `argv` (without node and the script); resolves with the exit code. */
export async function main(
  argv: string[],
  commands: readonly Command[] = COMMANDS,
  context: CommandContext = processTerminal(),
): Promise<number> {
  const code = await dispatch(argv, commands, context);
  // A closed output (`| head`) stopped the command: a status that claims neither success nor failure.
  return context.closed?.aborted ? EXIT_OUTPUT_CLOSED : code;
}

async function dispatch(argv: string[], commands: readonly Command[], context: CommandContext): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    context.out(mainHelp(commands));
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    context.out(PACKAGE_VERSION);
    return 0;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) {
    const close = closestFlag(
      first,
      commands.map((c) => c.name),
    );
    context.err(
      `${PACKAGE_NAME}: unknown command "${first}".${close ? ` Did you mean ${close}?` : ''} Commands: ${commands.map((c) => c.name).join(', ')}. See --help.`,
    );
    return 2;
  }
  try {
    // `--help` anywhere answers with the help, even beside a mistake.
    if (rest.includes('--help')) {
      context.out(commandHelp(command));
      return 0;
    }
    const values = parseFlags(command.options, rest);
    if (values.help) {
      context.out(commandHelp(command));
      return 0;
    }
    return await command.run(values, context);
  } catch (error) {
    // The last exit of every command: a message naming what a file or a provider held (a CSV header
    // cell, a file name) is masked here, whoever built it.
    const message = redactText(
      `${PACKAGE_NAME} ${command.name}: ${error instanceof Error ? error.message : String(error)}`,
    );
    // An optional peer not installed: its install command is the message; no usage line (the flags are right).
    if (error instanceof MissingPeerError) {
      context.err(message);
      return EXIT.usage;
    }
    if (!isUsageError(error)) {
      context.err(message);
      return 1;
    }
    context.err(usageLine(command));
    context.err(`See \`${PACKAGE_NAME} ${command.name} --help\` for every option.`);
    context.err(message);
    return 2;
  }
}
