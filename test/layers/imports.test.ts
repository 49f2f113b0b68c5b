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

async function readImports() {
  const rows: Array<{ file: string; specifier: string | undefined; target: string | undefined; dynamic: boolean }> = [];
  for (const file of await sourceFiles('src')) {
    for (const { specifier, dynamic } of specifiersOf(await readFile(join(repoRoot, file), 'utf8'))) {
      const target = specifier?.startsWith('.')
        ? relative(repoRoot, resolve(repoRoot, dirname(file), specifier))
        : specifier;
      rows.push({ file, specifier, target, dynamic });
    }
  }
  return rows;
}

// What `import()` may load: the optional peers, a subcommand of the command line, the generated validators.
const OPTIONAL_PEERS = ['@hono/node-server', 'msw', '@faker-js/faker', 'undici', '@opentelemetry/api'];
const SUBCOMMANDS = [
  'src/sandbox/index.js',
  'src/verify/cli.js',
  'src/cli/batch/update-many-run.js',
  'src/cli/batch/export-keys-run.js',
  'src/cli/docs-serve.js',
];
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
