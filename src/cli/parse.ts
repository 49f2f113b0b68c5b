// A command's arguments, read against its declared flags. Every mistake is a UsageError that names the
// flag and says what to do: an unknown flag gets the closest one ("did you mean --port?"), a flag
// renamed in 1.0 its new name, a flag without its value the form it takes. No value is ever echoed
// (a misplaced secret must not reach the terminal's scrollback or a CI log).
import { parseArgs } from 'node:util';
import { type Flags, UsageError, type Values } from './command.js';

/** Flags renamed in 1.0 (one vocabulary with the library): the old name → the new one. */
export const RENAMED: Readonly<Record<string, string>> = {
  'page-size': 'limit',
  timeout: 'timeout-ms',
  'time-budget': 'time-budget-ms',
  'token-ttl': 'token-ttl-seconds',
};

/** Edit distance with adjacent transpositions (`--prot` is one step from `--port`). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The declared flag closest to `name`, if one is close enough to be what was meant. */
export function closestFlag(name: string, flags: readonly string[]): string | undefined {
  let best: { flag: string; distance: number } | undefined;
  for (const flag of flags) {
    // A prefix of a flag, or a flag with something added, is as close as a typo.
    const distance = flag.startsWith(name) || name.startsWith(flag) ? 1 : editDistance(name, flag);
    if (!best || distance < best.distance) best = { flag, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.flag : undefined;
}

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
