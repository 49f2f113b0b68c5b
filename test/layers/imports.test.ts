// The layers of src/, read from every import specifier (scripts/lib/source-tokens.mjs, a lexer that
// loads in no time where TypeScript's parser took 1.6 s; type-only imports, re-exports and `import()`
// included):
// - logging, auth and TLS import nothing from src/client/ (what they share with it is in the leaf
//   modules src/fetch.ts, src/redact.ts and src/call-events.ts);
// - the transport (src/transport/) is a layer below the client, auth and verify: it imports none of
//   them, and src/auth/ and src/verify/ call no fetch of their own (they send through the transport);
// - nothing in src/ imports from scripts/;
// - the package's own modules are imported statically: `import()` is left for the optional peers,
//   the command line's subcommands and the generated response validators.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { fetchCallsOf, specifiersOf } from '../../scripts/lib/source-tokens.mjs';

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(repoRoot, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|mts|js|mjs)$/.test(e.name))
    .map((e) => relative(repoRoot, join(e.parentPath, e.name)))
    .sort();
}

/** Each import of src/ as `file -> where it points` (repo-relative for a relative specifier). Read once. */
let reading: ReturnType<typeof readImports> | undefined;
const importsOfSrc = () => (reading ??= readImports());

// `import type …` and `export type … from`: erased, so nothing is loaded by them at run time.
const TYPE_ONLY = /\b(?:import|export)\s+type\s[^;]*?\bfrom\s*['"]([^'"]+)['"]/g;

async function readImports() {
  const rows: Array<{
    file: string;
    specifier: string | undefined;
    target: string | undefined;
    dynamic: boolean;
    /** Every static import of `specifier` in the file is type-only: nothing loads at run time. */
    typeOnly: boolean;
  }> = [];
  for (const file of await sourceFiles('src')) {
    const text = await readFile(join(repoRoot, file), 'utf8');
    const found = specifiersOf(text);
    const typeOnly = [...text.matchAll(TYPE_ONLY)].map((match) => match[1]);
    for (const { specifier, dynamic } of found) {
      const target = specifier?.startsWith('.')
        ? relative(repoRoot, resolve(repoRoot, dirname(file), specifier))
        : specifier;
      const statics = found.filter((other) => !other.dynamic && other.specifier === specifier).length;
      const erased = !dynamic && typeOnly.filter((other) => other === specifier).length === statics;
      rows.push({ file, specifier, target, dynamic, typeOnly: erased });
    }
  }
  return rows;
}

/** The modules of src/ that loading `entry` loads, statically (type-only imports left out), as .ts files. */
async function loadedAtStart(entry: string): Promise<Set<string>> {
  const rows = await importsOfSrc();
  const loaded = new Set([entry]);
  for (const file of loaded)
    for (const r of rows)
      if (r.file === file && !r.dynamic && !r.typeOnly && r.target?.startsWith('src/'))
        loaded.add(r.target.replace(/\.js$/, '.ts'));
  return loaded;
}

// What `import()` may load: the optional peers, a subcommand of the command line, the generated validators.
// The optional peers are package.json's own (peerDependenciesMeta, optional), never a copy of them.
const { peerDependenciesMeta } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const OPTIONAL_PEERS = Object.keys(peerDependenciesMeta).filter((name) => peerDependenciesMeta[name]!.optional);
// The command line's subcommands, from its declarations, not a list: a command is declared by a file of
// src/cli/ that calls defineCommand (src/cli/commands.ts lists each one), and a module that file loads by
// import() is its work when the command line's start (src/cli/index.ts) does not load it: the import() is
// what keeps that work off the start. A module the start loads anyway is no subcommand.
const COMMAND_FILES: string[] = [];
for (const file of await sourceFiles('src/cli'))
  if (/\bdefineCommand\(\{/.test(await readFile(join(repoRoot, file), 'utf8'))) COMMAND_FILES.push(file);
const AT_START = await loadedAtStart('src/cli/index.ts');
const SUBCOMMANDS = (await importsOfSrc())
  .filter((r) => r.dynamic && COMMAND_FILES.includes(r.file) && r.target?.startsWith('src/'))
  .map((r) => r.target!)
  .filter((target) => !AT_START.has(target.replace(/\.js$/, '.ts')));
// undici and node:tls load through a variable (bundlers must not resolve an optional peer).
const COMPUTED_IMPORT_ALLOWED_IN = ['src/tls/agent.ts'];

function dynamicImportAllowed(file: string, target: string | undefined): boolean {
  if (target === undefined) return COMPUTED_IMPORT_ALLOWED_IN.includes(file);
  if (target === 'src/generated/response-validators.js') return true;
  if (file.startsWith('src/cli/') && SUBCOMMANDS.includes(target)) return true;
  return OPTIONAL_PEERS.includes(target);
}

describe('the import specifiers read', () => {
  it('include type-only imports, re-exports, import() calls, type imports and computed names', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { b } from './b.js';",
      "import './c.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "type F = typeof import('./f.js');",
      "const g = () => import('./g.js');",
      'const h = (name: string) => import(name);',
    ].join('\n');
    expect(specifiersOf(text)).toEqual([
      { specifier: './a.js', dynamic: false },
      { specifier: './b.js', dynamic: false },
      { specifier: './c.js', dynamic: false },
      { specifier: './d.js', dynamic: false },
      { specifier: './e.js', dynamic: false },
      { specifier: './f.js', dynamic: false },
      { specifier: './g.js', dynamic: true },
      { specifier: undefined, dynamic: true },
    ]);
  });
});

describe('the layers of src/', () => {
  it('logging, auth, TLS and tracing import nothing from src/client/', async () => {
    const rows = await importsOfSrc();
    const backwards = rows.filter(
      (r) => /^src\/(logging|auth|tls|tracing)\//.test(r.file) && r.target?.startsWith('src/client/'),
    );
    expect(backwards.map((r) => `${r.file} -> ${r.specifier}`)).toEqual([]);
    // The rule reads real files: these folders exist and import something.
    expect(rows.filter((r) => /^src\/(logging|auth|tls)\//.test(r.file)).length).toBeGreaterThan(20);
  });

  it('nothing in src/ imports from scripts/', async () => {
    const rows = await importsOfSrc();
    const intoScripts = rows.filter((r) => r.target === 'scripts' || r.target?.startsWith('scripts/'));
    expect(intoScripts.map((r) => `${r.file} -> ${r.specifier}`)).toEqual([]);
  });

  it("the subcommands are the commands' own: every declared command is in COMMANDS, and each import() of one is its work", async () => {
    const rows = await importsOfSrc();
    const listed = rows
      .filter((r) => r.file === 'src/cli/commands.ts' && !r.dynamic)
      .map((r) => r.target!.replace(/\.js$/, '.ts'))
      .filter((file) => COMMAND_FILES.includes(file));
    expect(listed.sort()).toEqual([...COMMAND_FILES].sort());
    // The declarations are read, and they do load their work: verify's, the batch commands', the sandbox's.
    expect(COMMAND_FILES.length).toBeGreaterThan(4);
    expect(SUBCOMMANDS).toEqual(expect.arrayContaining(['src/verify/cli.js', 'src/cli/batch/update-many-run.js']));
    // The start is read through the commands: their declarations load with it, their work does not.
    expect(COMMAND_FILES.every((file) => AT_START.has(file))).toBe(true);
    expect(AT_START.has('src/verify/cli.ts')).toBe(false);
  });

  it('import() loads only optional peers, subcommands and the generated response validators', async () => {
    const rows = await importsOfSrc();
    const dynamic = rows.filter((r) => r.dynamic);
    expect(
      dynamic
        .filter((r) => !dynamicImportAllowed(r.file, r.target))
        .map((r) => `${r.file} -> ${r.specifier ?? '(computed)'}`),
    ).toEqual([]);
    expect(dynamic.length).toBeGreaterThan(0);
  });
});

describe('the transport (src/transport/)', () => {
  it('finds every spelling of a fetch call, and no mere mention of one', () => {
    const text = [
      'fetch(url, init);',
      'globalThis.fetch(url);',
      'this.deps?.fetch(url);',
      "deps['fetch'](url);",
      '(fetch)(url);',
      'fetch.call(undefined, url);',
      'const send: FetchLike = options.fetch ?? tlsFetch;',
      '// fetch(url) in a comment',
      'prefetch(url); fetchFollowingRedirects(send, url, init, hop);',
    ].join('\n');
    expect(fetchCallsOf(text)).toEqual([
      'fetch(url, init)',
      'globalThis.fetch(url)',
      'this.deps?.fetch(url)',
      "deps['fetch'](url)",
      '(fetch)(url)',
      'fetch.call(undefined, url)',
    ]);
  });

  it('src/auth/ and src/verify/ call no fetch of their own: they send through the transport', async () => {
    const files = [...(await sourceFiles('src/auth')), ...(await sourceFiles('src/verify'))];
    const calls: string[] = [];
    for (const file of files)
      for (const call of fetchCallsOf(await readFile(join(repoRoot, file), 'utf8'))) calls.push(`${file}: ${call}`);
    expect(calls).toEqual([]);
    // The rule reads real files, and they do send, through the transport's attempt.
    expect(files.length).toBeGreaterThan(10);
    const rows = await importsOfSrc();
    const through = (file: string) => rows.some((r) => r.file === file && r.target === 'src/transport/attempt.js');
    expect(['src/auth/request-token.ts', 'src/verify/budget.ts', 'src/client/call.ts'].filter(through)).toEqual([
      'src/auth/request-token.ts',
      'src/verify/budget.ts',
      'src/client/call.ts',
    ]);
  });

  it('imports only itself and the leaves: nothing of the client, auth, verify or any other part', async () => {
    const rows = await importsOfSrc();
    const own = rows.filter((r) => r.file.startsWith('src/transport/'));
    const LEAVES = ['src/errors.js', 'src/fetch.js', 'src/body-limit.js'];
    const outside = own.filter((r) => !r.target?.startsWith('src/transport/') && !LEAVES.includes(r.target ?? ''));
    expect(outside.map((r) => `${r.file} -> ${r.specifier}`)).toEqual([]);
    expect(own.length).toBeGreaterThan(3);
  });

  it('sends nothing of its own through the runtime but by the one default (runtime-fetch.ts) and the redirect rule', async () => {
    const calls: string[] = [];
    for (const file of await sourceFiles('src/transport'))
      for (const call of fetchCallsOf(await readFile(join(repoRoot, file), 'utf8'))) calls.push(`${file}: ${call}`);
    expect(calls).toEqual([
      'src/transport/redirect.ts: fetch(url, init)',
      'src/transport/runtime-fetch.ts: globalThis.fetch(url, init)',
    ]);
  });
});
