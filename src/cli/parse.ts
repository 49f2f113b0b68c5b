// A command's arguments, read against its declared flags. Every mistake is a UsageError that names the
// flag and says what to do: an unknown flag gets the closest one ("did you mean --port?"), a flag
// renamed in 1.0 its new name, a flag without its value the form it takes. No value is ever echoed
// (a misplaced secret must not reach the terminal's scrollback or a CI log).
import { parseArgs } from 'node:util';
import { closestName } from '../words.js';
import { type Flags, UsageError, type Values } from './command.js';

/** Flags renamed in 1.0 (one vocabulary with the library): the old name → the new one. */
export const RENAMED: Readonly<Record<string, string>> = {
  'page-size': 'limit',
  timeout: 'timeout-ms',
  'time-budget': 'time-budget-ms',
  'token-ttl': 'token-ttl-seconds',
};

/** The declared flag closest to `name`, if one is close enough to be what was meant. */
export const closestFlag = closestName;

function unknownFlag(raw: string, flags: Flags): UsageError {
  // `-x` or `--name=value`: the name only, never the value.
  const name = raw.replace(/^-+/, '').replace(/=.*$/, '');
  const renamed = RENAMED[name];
  if (renamed !== undefined && renamed in flags)
    return new UsageError(`--${name} is now --${renamed} (renamed in 1.0)`);
  const names = [...Object.keys(flags), 'help'];
  const close = raw.startsWith('--') ? closestFlag(name, names) : undefined;
  const shown = raw.startsWith('--') ? `--${name}` : `-${name}`;
  return new UsageError(`unknown option ${shown}${close === undefined ? '' : `; did you mean --${close}?`}`);
}

const synopsis = (name: string, flags: Flags) => `--${name} ${flags[name]!.value ?? 'VALUE'}`;

/** Parses `args` against `flags` (`--help`/`-h` always accepted); a UsageError for any mistake. */
export function parseFlags<O extends Flags>(flags: O, args: readonly string[]): Values<O> & { help?: boolean } {
  const options = {
    ...Object.fromEntries(
      Object.entries(flags).map(([name, flag]) => [
        name,
        { type: flag.type, ...(flag.short ? { short: flag.short } : {}) },
      ]),
    ),
    help: { type: 'boolean', short: 'h' },
  } as const;
  // First pass, lenient: every token, to name what is wrong in our words.
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  let positionals = 0;
  for (const token of tokens) {
    if (token.kind === 'positional') positionals += 1;
    if (token.kind !== 'option') continue;
    if (!(token.name in options)) throw unknownFlag(token.rawName, flags);
    const type: string = options[token.name as keyof typeof options].type;
    if (type === 'string' && token.value === undefined)
      throw new UsageError(`${token.rawName} needs a value: ${synopsis(token.name, flags)}`);
    // `--port --host x`: the lenient pass took the next flag for the value.
    if (type === 'string' && !token.inlineValue && token.value!.startsWith('-'))
      throw new UsageError(
        `${token.rawName} needs a value: ${synopsis(token.name, flags)} (a value that starts with "-" goes after "=": --${token.name}=-…)`,
      );
    if (type === 'boolean' && token.inlineValue)
      throw new UsageError(`--${token.name} takes no value: give --${token.name} alone, or leave it out`);
  }
  if (positionals > 0)
    throw new UsageError(
      `takes options only (--name VALUE), but got ${positionals} other argument${positionals === 1 ? '' : 's'}`,
    );
  return parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values as Values<O> & {
    help?: boolean;
  };
}
