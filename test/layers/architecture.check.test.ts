// ARCHITECTURE.md's table, enforced as written: every row is a part of src/ (the paths in its first
// column), and its "May import" column is every part it may import; anything not written there is not
// allowed. The table is read from the file itself, so changing an arrow is changing the document, and
// every import of every file of src/ (type-only imports, re-exports, `import()` and `import('…')` types
// included, read with TypeScript's parser) is checked against it.
//
// How the column reads: a list separated by commas (a parenthesis is a remark, not a separator);
// `never …` after a dash only stresses what the list leaves out. An item names a part by its folder or
// file (`generated` is `src/generated/`, `types` is `src/types.ts`, `leaves` the row of leaves) or by a path
// in backticks; `X types`, `types of X and Y`, `X's … types` and `X (… type)` allow type-only imports of X.
// `each other only` (the leaves) allows the row itself; `re-exports only` (src/index.ts) allows any part:
// the entry re-exports what it publishes. A part may always import itself.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

interface Part {
  /** The paths of its first column, e.g. `src/client/` or `src/errors.ts`. */
  paths: string[];
  /** What it may import: another part's key, with or without values. */
  imports: Array<{ part: string; typesOnly: boolean }>;
  any: boolean;
}

const table = await readFile(join(repoRoot, 'ARCHITECTURE.md'), 'utf8');
const rows = table
  .split('\n')
  .filter((line) => /^\| `src\//.test(line))
  .map((line) =>
    line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );

const key = (paths: string[]) => paths.join(' ');
const partPaths = rows.map(([first]) => [...first!.matchAll(/`(src\/[^`]*)`/g)].map((m) => m[1]!));
const LEAVES = key(partPaths.find((paths) => paths.length > 3)!);

/** `generated` -> the part `src/generated/`; `types` -> `src/types.ts`; `leaves` -> the row of leaves. */
function partNamed(word: string): string {
  if (word === 'leaves') return LEAVES;
  const found = partPaths.find((paths) => paths.length === 1 && [`src/${word}/`, `src/${word}.ts`].includes(paths[0]!));
  if (!found) throw new Error(`ARCHITECTURE.md names a part "${word}" that no row of the table is`);
  return key(found);
}

/** Splits the column on commas outside parentheses. */
function items(column: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of column) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

function readItem(item: string, self: string): Part['imports'] | 'any' {
  const path = /`(src\/[^`]*)`/.exec(item)?.[1];
  const remark = /\(([^)]*)\)/.exec(item)?.[1] ?? '';
  const plain = item
    .replace(/\([^)]*\)/g, '')
    .replace(/`/g, '')
    .trim();
  if (plain === 'nothing of ours') return [];
  if (plain === 're-exports only') return 'any';
  if (plain === 'each other only') return [{ part: self, typesOnly: false }];
  if (path) {
    const found = partPaths.find((paths) => paths.includes(path));
    if (!found) throw new Error(`ARCHITECTURE.md names ${path}, which no row of the table is`);
    return [{ part: key(found), typesOnly: false }];
  }
  const typesOf = /^types of (.+)$/.exec(plain);
  if (typesOf) return typesOf[1]!.split(/\s+and\s+/).map((word) => ({ part: partNamed(word.trim()), typesOnly: true }));
  const possessive = /^(\w+)'s .*\btypes?$/.exec(plain);
  if (possessive) return [{ part: partNamed(possessive[1]!), typesOnly: true }];
  const typed = /^(\w+) types?$/.exec(plain);
  if (typed) return [{ part: partNamed(typed[1]!), typesOnly: true }];
  if (/^[\w-]+$/.test(plain)) return [{ part: partNamed(plain), typesOnly: /\btypes?\b/.test(remark) }];
  throw new Error(`ARCHITECTURE.md: cannot read "${item}" in the table's "May import" column`);
}

const parts = new Map<string, Part>();
rows.forEach((cells, at) => {
  const self = key(partPaths[at]!);
  const column = cells[2]!.split(/\s+—\s+never\b/)[0]!;
  const part: Part = { paths: partPaths[at]!, imports: [], any: false };
  for (const item of items(column)) {
    const read = readItem(item, self);
    if (read === 'any') part.any = true;
    else part.imports.push(...read);
  }
  parts.set(self, part);
});

/** The part a file of src/ is in: the row that lists it, the most specific one (a file's own row, a sub-folder's). */
function partOf(file: string): string | undefined {
  let best: { key: string; score: number } | undefined;
  for (const [name, part] of parts)
    for (const path of part.paths) {
      const matches = path.endsWith('/') ? file.startsWith(path) : file === path;
      // A longer path is more specific; a row of one path is more specific than the row of leaves.
      const score = matches ? path.length * 10 + (part.paths.length === 1 ? 1 : 0) : -1;
      if (score >= 0 && (!best || score > best.score)) best = { key: name, score };
    }
  return best?.key;
}

interface Import {
  file: string;
  target: string;
  typesOnly: boolean;
  line: number;
}

/** Every import of a file: declarations, re-exports, `import()` calls and `import('…')` types, with whether it is type-only. */
function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Import[] = [];
  const add = (specifier: ts.Expression | undefined, typesOnly: boolean, node: ts.Node) => {
    if (!specifier || !ts.isStringLiteralLike(specifier) || !specifier.text.startsWith('.')) return;
    const target = relative(repoRoot, resolve(repoRoot, dirname(file), specifier.text)).replace(/\.js$/, '.ts');
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    out.push({ file, target, typesOnly, line });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : undefined;
      const typesOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, typesOnly, node);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause : undefined;
      add(
        node.moduleSpecifier,
        node.isTypeOnly || (named !== undefined && named.elements.every((e) => e.isTypeOnly)),
        node,
      );
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(join(repoRoot, 'src'), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(repoRoot, join(e.parentPath, e.name)))
    .sort();
}

const files = await sourceFiles();
const imports = (
  await Promise.all(files.map(async (file) => importsOf(file, await readFile(join(repoRoot, file), 'utf8'))))
).flat();

/** Whether a row of the table lists the file (a folder of it lists every file under it). */
const inRow = (row: string, file: string) =>
  parts.get(row)!.paths.some((path) => (path.endsWith('/') ? file.startsWith(path) : file === path));

/** Why an import breaks the table, or undefined when an arrow allows it. */
function breach(entry: Import): string | undefined {
  const from = partOf(entry.file);
  const to = partOf(entry.target);
  if (from === undefined || to === undefined)
    return `${entry.file}:${entry.line} -> ${entry.target}: in no row of the table`;
  if (from === to) return undefined;
  const part = parts.get(from)!;
  if (part.any) return undefined;
  // An arrow to a row allows every file that row lists (`leaves` allows src/errors.ts, which has a row of its own too).
  const drawn = part.imports.filter((allowed) => inRow(allowed.part, entry.target));
  if (drawn.some((allowed) => entry.typesOnly || !allowed.typesOnly)) return undefined;
  const typesOnly = drawn.length > 0;
  return `${entry.file}:${entry.line} -> ${entry.target}: ${from} may not import ${to}${typesOnly ? ' (types only)' : ''}`;
}

describe("ARCHITECTURE.md's table", () => {
  it('is read: a row per part, each with what it may import', () => {
    expect(parts.size).toBeGreaterThan(15);
    expect(parts.get('src/generated/')).toEqual({ paths: ['src/generated/'], imports: [], any: false });
    expect(parts.get('src/errors.ts')!.imports).toEqual([
      { part: LEAVES, typesOnly: false },
      { part: 'src/logging/', typesOnly: true },
      { part: 'src/validation/', typesOnly: true },
      { part: 'src/generated/', typesOnly: true },
      { part: 'src/types.ts', typesOnly: false },
    ]);
    expect(parts.get('src/verify/')!.imports.map(({ part }) => part)).toContain('src/cli/connection/');
    expect(parts.get('src/index.ts')!.any).toBe(true);
  });

  it('places every file of src/ in a part', () => {
    expect(files.filter((file) => partOf(file) === undefined)).toEqual([]);
    expect(partOf('src/cli/connection/credentials.ts')).toBe('src/cli/connection/');
    expect(partOf('src/errors.ts')).toBe('src/errors.ts');
    expect(partOf('src/redact.ts')).toBe(LEAVES);
  });

  it('allows every import of src/ (type-only ones too): anything not drawn is not allowed', () => {
    expect(imports.length).toBeGreaterThan(300);
    expect(imports.map(breach).filter((why) => why !== undefined)).toEqual([]);
  });

  it('fails on an import it does not draw, and allows a type import only where it says types', () => {
    const made = (file: string, target: string, typesOnly: boolean): Import => ({ file, target, typesOnly, line: 1 });
    expect(breach(made('src/generated/schema.ts', 'src/client/call.ts', true))).toMatch(/may not import/);
    expect(breach(made('src/errors.ts', 'src/logging/rate-limit.ts', true))).toBeUndefined();
    expect(breach(made('src/errors.ts', 'src/logging/rate-limit.ts', false))).toMatch(/\(types only\)/);
    expect(breach(made('src/call-events.ts', 'src/drift/problems.ts', true))).toMatch(/may not import/);
    expect(breach(made('src/transport/failure.ts', 'src/errors.ts', false))).toBeUndefined();
    expect(breach(made('src/auth/options.ts', 'src/client/call.ts', true))).toMatch(/may not import/);
  });
});
