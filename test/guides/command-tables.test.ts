// The getting-started guides' command-line tables, in English and in Portuguese, cover what `--help`
// shows: every command of the dispatcher has a row, and its row names every flag that the command's
// help names (its declared options, and for a command with its own parser the flags of its help
// text); a flag the help no longer shows fails too, so a renamed flag cannot linger in a guide.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { COMMANDS } from '../../src/cli/commands.js';
import { commandHelp, mainHelp } from '../../src/cli/main.js';
import { sandboxSettings } from '../../src/cli/sandbox-flags.js';

const GUIDES = [
  ['docs/guides/getting-started.md', '## The command line'],
  ['docs/guias/getting-started.md', '## A linha de comando'],
] as const;

/** The long flags a text names (`--port`, `--token-ttl`), `--help` left out: every command has it. */
const flagsIn = (text: string): Set<string> =>
  new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map(([flag]) => flag).filter((flag) => flag !== '--help'));

/** What `<command> --help` shows of a command's flags: its help text's, and its declared options'. */
const helpFlags = (name: string): Set<string> => {
  const command = COMMANDS.find((c) => c.name === name)!;
  return new Set([...flagsIn(commandHelp(command)), ...Object.keys(command.options).map((option) => `--${option}`)]);
};

/** The rows of the tables in a guide's command-line section, keyed by the command their first cell names. */
function commandSection(path: string, heading: string): { section: string; rows: Map<string, string> } {
  const text = readFileSync(join(repoRoot, path), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `${path} has the section "${heading}"`).toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + heading.length + 2);
  const section = text.slice(start, end === -1 ? undefined : end);
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const first = /^\|\s*`([a-z][a-z-]*)`\s*\|/.exec(line);
    if (first) rows.set(first[1]!, line);
  }
  return { section, rows };
}

describe.each(GUIDES)('%s', (path, heading) => {
  const { section, rows } = commandSection(path, heading);

  it('has a row for every command of --help, and no other', () => {
    const listed = COMMANDS.map((c) => c.name);
    for (const name of listed) expect(mainHelp()).toContain(`  ${name} `);
    expect([...rows.keys()].sort()).toEqual([...listed].sort());
  });

  it.each(COMMANDS.map((c) => c.name))('names every flag `%s --help` shows, and none it does not', (name) => {
    const shown = helpFlags(name);
    expect(shown.size, `${name} --help shows flags`).toBeGreaterThan(0);
    const row = flagsIn(rows.get(name) ?? '');
    expect(
      [...shown].filter((flag) => !row.has(flag)),
      `flags of ${name} missing from its row`,
    ).toEqual([]);
    expect(
      [...row].filter((flag) => !shown.has(flag)),
      `flags in the row of ${name} that --help does not show`,
    ).toEqual([]);
  });

  it('names the global flags of --help', () => {
    const global = [...flagsIn(mainHelp().split('\nOptions:\n')[1] ?? '')];
    expect(global).toContain('--version');
    for (const flag of global) expect(section).toContain(`\`${flag}\``);
  });
});

describe('the fault lists the guides show', () => {
  // `503:0.05:retry-after-seconds=0,429:0.01`: a guide that shows another spelling sends its reader to a usage error.
  const FAULT_LIST = /`(\d{3}:[0-9.]+(?::[^`,\s]+)?(?:,\d{3}:[0-9.]+(?::[^`,\s]+)?)*)`/g;
  const files = ['README.md', ...GUIDES.map(([path]) => path), 'docs/guides/batch.md', 'docs/guias/batch.md'];
  it.each(files)('%s: each parses as --faults takes it', (path) => {
    const text = readFileSync(join(repoRoot, path), 'utf8');
    for (const [, list = ''] of text.matchAll(FAULT_LIST))
      expect(() => sandboxSettings({ faults: list }), list).not.toThrow();
  });

  it('finds the example of the getting-started table', () => {
    const text = readFileSync(join(repoRoot, GUIDES[0][0]), 'utf8');
    expect([...text.matchAll(FAULT_LIST)].length).toBeGreaterThan(0);
  });
});
