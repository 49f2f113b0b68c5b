// Every public name, as the API reports record it (api/*.api.md, `npm run api:report`), against the
// names a program already has in scope on the web platform. A name shared with a global shadows it in
// the user's module (api-extractor shows it as `ErrorEvent_2`), and an error `name` shared with a
// DOMException name cannot be told apart (`err.name === 'TimeoutError'` is also what
// `AbortSignal.timeout()` rejects with). Neither list is kept by hand:
// - the globals are every top-level declaration of TypeScript's own lib files (lib.dom, lib.webworker,
//   the ECMAScript libs), read with TypeScript's parser;
// - the DOMException names are WebIDL's, one per legacy code constant of lib.dom's `DOMException`
//   (`TIMEOUT_ERR` is `TimeoutError`, compared without case and separators, so `URL_MISMATCH_ERR` is
//   `URLMismatchError`). WebIDL's newer names have no code (`NotReadableError`, `OperationError`, …); the
//   rule below covers them: every public error class, and so its `name`, begins with the package's
//   prefix `Baas`, which no web-platform name does.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const PREFIX = 'Baas';
const libFolder = dirname(createRequire(import.meta.url).resolve('typescript/lib/lib.dom.d.ts'));

/** The lib files a browser, a worker or plain ECMAScript puts names in scope from. */
async function libFiles(): Promise<string[]> {
  const files = await readdir(libFolder);
  return files.filter((file) => /^lib\.(dom|webworker|es\w*|decorators|scripthost)(\.\w+)*\.d\.ts$/.test(file));
}

async function libSource(file: string): Promise<ts.SourceFile> {
  return ts.createSourceFile(file, await readFile(join(libFolder, file), 'utf8'), ts.ScriptTarget.Latest);
}

/** Every name a top-level statement of a lib file declares: interfaces, types, vars, functions, namespaces. */
function declaredNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if (
      (ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name &&
      ts.isIdentifier(statement.name)
    ) {
      names.push(statement.name.text);
    }
  }
  return names;
}

/** `TIMEOUT_ERR` -> `timeouterror`: the WebIDL name of a legacy code, without case or separators. */
const fromLegacyCode = (constant: string) => `${constant.replace(/_ERR$/, '').replaceAll('_', '')}error`.toLowerCase();

/** The legacy code constants lib.dom declares on `DOMException` (its interface and its `var`). */
function domExceptionCodes(source: ts.SourceFile): string[] {
  const codes = new Set<string>();
  const visit = (node: ts.Node, inside: boolean) => {
    const named =
      (ts.isInterfaceDeclaration(node) || ts.isVariableDeclaration(node)) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'DOMException';
    if (inside && ts.isPropertySignature(node) && ts.isIdentifier(node.name) && /^[A-Z_]+_ERR$/.test(node.name.text))
      codes.add(node.name.text);
    ts.forEachChild(node, (child) => visit(child, inside || named));
  };
  visit(source, false);
  return [...codes];
}

interface ReportedName {
  report: string;
  name: string;
  line: string;
}

/** Every name an API report makes public, namespace members included, and the report's own spelling (`X_2`). */
async function reportedNames(): Promise<ReportedName[]> {
  const folder = join(repoRoot, 'api');
  const names: ReportedName[] = [];
  for (const report of (await readdir(folder)).filter((file) => file.endsWith('.api.md'))) {
    const text = await readFile(join(folder, report), 'utf8');
    for (const line of text.split('\n')) {
      // A declaration at the top of a report is public: exported from the entry, or a member of an exported
      // namespace (`declare namespace Contract { export { PixKey, … } }` declares `type PixKey` beside it).
      const declared =
        /^(?:export )?(?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|enum|namespace) ([\w$]+)/.exec(
          line,
        );
      if (declared) names.push({ report, name: declared[1]!, line });
      const listed = /^\s*export\s*\{([^}]*)\}/.exec(line);
      if (listed)
        for (const part of listed[1]!.split(',')) {
          const name = part
            .trim()
            .split(/\s+as\s+/)
            .pop();
          if (name) names.push({ report, name, line });
        }
    }
  }
  return names;
}

const [libs, reported] = await Promise.all([
  libFiles().then((files) => Promise.all(files.map(libSource))),
  reportedNames(),
]);
const globals = new Set(libs.flatMap(declaredNames));
const dom = libs.find((source) => source.fileName === 'lib.dom.d.ts')!;
const domExceptionNames = new Set(domExceptionCodes(dom).map(fromLegacyCode));

describe('the names the API reports export', () => {
  it('were read: lib.dom declares its globals and DOMException codes, and the reports export names', () => {
    // The derivations themselves, so that a lib file of another shape fails here instead of passing everything.
    expect(globals).toContain('ErrorEvent');
    expect(globals).toContain('DocumentType');
    expect(globals).toContain('Response');
    expect(domExceptionNames).toContain('timeouterror');
    expect(domExceptionNames).toContain('aborterror');
    expect(domExceptionNames).toContain('networkerror');
    expect(domExceptionNames).toContain('urlmismatcherror');
    expect(reported.length).toBeGreaterThan(50);
  });

  it('share no name with a web-platform or ECMAScript global', () => {
    const shared = reported.filter(({ name }) => globals.has(name));
    expect(shared.map(({ report, name }) => `${report}: ${name}`)).toEqual([]);
  });

  it('share no name with a DOMException name', () => {
    const shared = reported.filter(({ name }) => domExceptionNames.has(name.toLowerCase()));
    expect(shared.map(({ report, name }) => `${report}: ${name}`)).toEqual([]);
  });

  it('include no renamed duplicate (`X_2`: api-extractor had two declarations of one name)', () => {
    const renamed = reported.filter(({ name, line }) => /_\d+$/.test(name) || /\b[A-Za-z]\w*_\d+\b/.test(line));
    expect(renamed.map(({ report, line }) => `${report}: ${line.trim()}`)).toEqual([]);
  });

  it('document every item (api-extractor marks an item without a doc comment `(undocumented)`)', async () => {
    const undocumented: string[] = [];
    for (const report of new Set(reported.map(({ report }) => report))) {
      const lines = (await readFile(join(repoRoot, 'api', report), 'utf8')).split('\n');
      lines.forEach((line, at) => {
        if (line.includes('(undocumented)')) undocumented.push(`${report}: ${lines[at + 1]?.trim()}`);
      });
    }
    expect(undocumented).toEqual([]);
  });

  it('include no empty type (`Record<string, never>`, `never`, `{}`)', async () => {
    const empty: string[] = [];
    for (const report of new Set(reported.map(({ report }) => report))) {
      const text = await readFile(join(repoRoot, 'api', report), 'utf8');
      for (const match of text.matchAll(
        /^\s*export (?:declare )?type ([\w$]+)(?:<[^=]*>)? = (Record<string, never>|never|\{\s*\});/gm,
      ))
        empty.push(`${report}: ${match[1]}`);
      for (const match of text.matchAll(/^\s*export (?:declare )?interface ([\w$]+)(?:<[^{]*>)? \{\s*\}/gm))
        empty.push(`${report}: ${match[1]}`);
    }
    expect(empty).toEqual([]);
  });
});

describe('the error classes every entry exports', () => {
  it(`each begins with ${PREFIX}, and so does its name (no web-platform name does)`, async () => {
    const entries = await Promise.all([
      import('../../src/index.js'),
      import('../../src/sandbox/index.js'),
      import('../../src/testing/index.js'),
    ]);
    const classes = entries.flatMap((entry) =>
      Object.entries(entry).filter(
        (pair): pair is [string, abstract new (...args: never[]) => Error] =>
          typeof pair[1] === 'function' && pair[1].prototype instanceof Error,
      ),
    );
    expect(classes.length).toBeGreaterThan(3);
    for (const [exported, error] of classes) {
      expect(exported.startsWith(PREFIX), exported).toBe(true);
      // `name` is the constructor's own name (src/errors.ts sets it from `new.target`): what a log shows.
      expect(error.name, exported).toBe(exported);
    }
  });
});
