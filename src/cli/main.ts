// The command line's dispatcher: global flags, the subcommand, its options, its exit code.
import { parseArgs } from 'node:util';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import { type Command, type CommandContext, UsageError } from './command.js';
import { COMMANDS } from './commands.js';

const stdio: CommandContext = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
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

export const commandHelp = (command: Command): string =>
  [
    `Usage: ${PACKAGE_NAME} ${command.name} ${command.usage}`,
    '',
    command.summary,
    '',
    ...command.details.map((d) => `  ${d}`),
  ].join('\n');

/** Runs the command line on `argv` (without node and the script); resolves with the exit code. */
export async function main(
  argv: string[],
  commands: readonly Command[] = COMMANDS,
  context: CommandContext = stdio,
): Promise<number> {
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
    context.err(
      `${PACKAGE_NAME}: unknown command "${first}". Commands: ${commands.map((c) => c.name).join(', ')}. See --help.`,
    );
    return 2;
  }
  try {
    if (command.ownArguments) {
      if (rest[0] === '--help' || rest[0] === '-h') {
        context.out(commandHelp(command));
        return 0;
      }
      return await command.run({}, rest, context);
    }
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      context.out(commandHelp(command));
      return 0;
    }
    return await command.run(values as never, positionals, context);
  } catch (error) {
    const usage =
      error instanceof UsageError ||
      (error as { code?: string } | null | undefined)?.code?.startsWith('ERR_PARSE_ARGS');
    context.err(`${PACKAGE_NAME} ${command.name}: ${error instanceof Error ? error.message : String(error)}`);
    if (usage) context.err(`See \`${PACKAGE_NAME} ${command.name} --help\`.`);
    return usage ? 2 : 1;
  }
}
