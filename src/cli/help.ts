// Every `<command> --help`, in one layout, from the command's declarations alone: the usage line, the
// summary, each flag under its heading (the synopsis, then its help from column 32), then the notes.
import { PACKAGE_NAME } from '../version.js';
import type { Command, Flag } from './command.js';

const DESCRIPTION_COLUMN = 32;
const DEFAULT_GROUP = 'Options:';

/** `--port, -p N`, `--allow-writes`. */
export const flagSynopsis = (name: string, flag: Flag): string =>
  `--${name}${flag.short ? `, -${flag.short}` : ''}${flag.value ? ` ${flag.value}` : ''}`;

function flagLines(name: string, flag: Flag): string[] {
  const synopsis = `  ${flagSynopsis(name, flag)}`;
  const [first = '', ...rest] = flag.help;
  const indent = ' '.repeat(DESCRIPTION_COLUMN);
  // A synopsis too long for its column gets its own line.
  const head =
    synopsis.length < DESCRIPTION_COLUMN - 1
      ? [`${synopsis.padEnd(DESCRIPTION_COLUMN)}${first}`]
      : [synopsis, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)].map((line) => line.trimEnd());
}

/** The usage line alone, as a usage error shows it. */
export const usageLine = (command: Command): string =>
  `Usage: ${PACKAGE_NAME} ${command.name}${command.usage ? ` ${command.usage}` : ''}`;

export function commandHelp(command: Command): string {
  const groups = new Map<string, string[]>();
  for (const [name, flag] of Object.entries(command.options)) {
    const group = flag.group ?? DEFAULT_GROUP;
    groups.set(group, [...(groups.get(group) ?? []), ...flagLines(name, flag)]);
  }
  return [
    usageLine(command),
    '',
    command.summary,
    ...[...groups].flatMap(([title, lines]) => ['', title, ...lines]),
    ...(command.notes?.length ? ['', ...command.notes] : []),
  ].join('\n');
}
