// The code blocks of the README and the guides, read as what a reader would do with them. The rule
// (GUIDE: "every command and example in the guides is run by a test from a fresh project"):
//
// - A block fenced as `sh`, `ts` or `js` is run by test/guides/run-as-written.matrix.test.ts, unless the
//   line right before it (or before its `<!-- example: … -->` marker) is `<!-- not-run: <reason> -->`,
//   the reason saying why it cannot run from a fresh project and, where it is run elsewhere, where.
// - A block with no language or `text` is output or a listing: never run.
// - A `sh` block is commands, one a line (a trailing `\` continues it; `#` starts a comment). Each is one
//   of the kinds below; a line of no kind fails the rule test (test/guides/guide-blocks.test.ts), so a
//   command the runner does not know can only be in a block marked not-run.
// - A `ts` or `js` block is a file when its first line is `// <name>.<ext>` (a name, then anything), or
//   when it is an example file (`<!-- example: examples/x.ts -->`); any other block is a fragment and
//   must be marked not-run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';

export type CommandKind =
  /** `npm install …` / `npm i …`: run in the project as written (a `/path/to/<package>-<version>.tgz` is the packed tarball). */
  | 'install'
  /** `npm pkg set …`. */
  | 'pkg'
  /** `npx baas-pix-contract sandbox …`: started, and stopped when the guide is done. */
  | 'sandbox'
  /** Any other `npx baas-pix-contract …`, `npx tsx FILE`, `npx vitest …` or `node FILE`, with `NAME=value` before it. */
  | 'run';

export interface Command {
  line: string;
  kind: CommandKind | undefined;
  /** `NAME=value` words before the program. */
  env: Record<string, string>;
  /** The words after them (quotes taken off), the program first. */
  argv: string[];
  /** The comment lines right after it: what it prints, as the guide shows it (`…` stands for anything). */
  shows: string[];
}

export interface Block {
  document: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** The reason of a `<!-- not-run: … -->` mark. */
  notRun?: string | undefined;
  /** The example file it shows, from its marker. */
  example?: string | undefined;
  /** The file a reader would create: `first-call.ts` from a first line `// first-call.ts`. */
  file?: string | undefined;
  commands: Command[];
}

export const RUNNABLE = new Set(['sh', 'ts', 'js']);

const FENCE = /^( *)```(\w*)\n([\s\S]*?)^\1```$/gm;
const NOT_RUN = /<!-- not-run: (.+?) -->\s*$/;
const EXAMPLE = /<!-- example: (\S+) -->\s*$/;
const FILE_LINE = /^\/\/ ([\w.-]+\.(?:ts|mts|cts|js|mjs|cjs))\b/;

/** What the sandbox prints for client 1, which the runner fills in: its token, client id and secret. */
export const PLACEHOLDERS = /sbx_(client_|secret_)?…/g;

/** A shell line's words: quotes taken off, no expansion (the guides' commands use none). */
export function words(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) found.push(match[1] ?? match[2] ?? match[3]!);
  return found;
}

/** A comment starts a line or follows a space, so that `https://…#v1` and `a#b` are not comments. */
const withoutComment = (line: string): string => line.replace(/(^|\s)#.*$/, '').trimEnd();

function kindOf(argv: string[]): CommandKind | undefined {
  const [program, first, second] = argv;
  if (program === 'npm' && (first === 'install' || first === 'i')) return 'install';
  if (program === 'npm' && first === 'pkg' && second === 'set') return 'pkg';
  if (program === 'npx' && first === 'baas-pix-contract') return second === 'sandbox' ? 'sandbox' : 'run';
  if (program === 'npx' && (first === 'tsx' || first === 'vitest') && second) return 'run';
  if (program === 'node' && first && /\.(m|c)?js$/.test(first)) return 'run';
  return undefined;
}

/** The commands of a `sh` block, each with the comment lines that follow it (its output, as shown). */
export function commandsOf(code: string): Command[] {
  const commands: Command[] = [];
  const lines = code.replace(/\\\n\s*/g, '').split('\n');
  for (const raw of lines) {
    const line = withoutComment(raw).trim();
    if (line === '') {
      const comment = /^\s*# ?(.*)$/.exec(raw);
      if (comment && commands.length > 0) commands.at(-1)!.shows.push(comment[1]!);
      continue;
    }
    const all = words(line);
    const env: Record<string, string> = {};
    while (all.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(all[0]!)) {
      const [name, ...value] = all.shift()!.split('=');
      env[name!] = value.join('=');
    }
    commands.push({ line, kind: kindOf(all), env, argv: all, shows: [] });
  }
  return commands;
}

/** Every fenced block of one document (a path relative to the repository). */
export function blocksOf(document: string, root = repoRoot): Block[] {
  const text = readFileSync(join(root, document), 'utf8');
  const blocks: Block[] = [];
  for (const match of text.matchAll(FENCE)) {
    const before = text.slice(0, match.index).split('\n');
    before.pop(); // the fence's own indentation
    const line = before.length + 1;
    let previous = before.at(-1) ?? '';
    const example = EXAMPLE.exec(previous)?.[1];
    if (example) previous = before.at(-2) ?? '';
    const indent = match[1]!.length;
    const code = match[3]!
      .split('\n')
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    const lang = match[2]!;
    const file = lang === 'sh' ? undefined : FILE_LINE.exec(code)?.[1];
    blocks.push({
      document,
      line,
      lang,
      code,
      notRun: NOT_RUN.exec(previous)?.[1],
      example,
      file,
      commands: lang === 'sh' ? commandsOf(code) : [],
    });
  }
  return blocks;
}

/** The README and every guide in English; the Portuguese guides' code is the same (test/examples/doc-blocks.test.ts). */
export const GUIDES = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs/guides'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/guides/${name}`),
];

/** What keeps a runnable block from being run as it is, or undefined when nothing does. */
export function whyNotRunnable(block: Block): string | undefined {
  if (!RUNNABLE.has(block.lang) || block.notRun) return undefined;
  if (block.lang === 'sh') {
    const unknown = block.commands.filter((command) => !command.kind).map((command) => command.line);
    if (unknown.length > 0) return `commands the runner does not know: ${unknown.join(' | ')}`;
    for (const command of block.commands) {
      const values = [...command.argv, ...Object.values(command.env)];
      const remote = values.find((value) => /^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/.test(value));
      if (remote) return `\`${command.line}\` calls ${remote}, which a test cannot reach`;
      const placeholder = values.find((value) => /[<>]/.test(value) || value.replace(PLACEHOLDERS, '').includes('…'));
      if (placeholder) return `\`${command.line}\` has a placeholder the runner cannot fill: ${placeholder}`;
    }
    return undefined;
  }
  if (!block.file && !block.example) return 'a fragment: neither a `// <name>.ts` first line nor an example marker';
  return undefined;
}

/** A `<!-- not-run -->` reason says why in words, not a token: at least four words. */
export const isReason = (reason: string): boolean => reason.trim().split(/\s+/).length >= 4;
