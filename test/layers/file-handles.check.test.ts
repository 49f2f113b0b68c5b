// Every write to a file goes through src/files.ts, handles included: file-writes.test.ts sees the
// writing functions a module imports from node:fs, and this sees what an import cannot show, a file
// handle held elsewhere. TypeScript's checker reads every expression of src/ outside src/files.ts and
// fails on one whose type is a descriptor of node:fs (a FileHandle, a WriteStream, a number from
// `open`'s promise is not one: the file layer hands out its own `OpenFile`, whose writes are its own).
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { sourceFiles } from '../support/source-scan.js';

const HOME = 'src/files.ts';
/** The types of node:fs that write to an open file, by name. */
const HANDLE_TYPES = new Set(['FileHandle', 'WriteStream']);

function program(files: string[]): ts.Program {
  const read = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  return ts.createProgram(
    files.map((file) => join(repoRoot, file)),
    { ...read!.options, noEmit: true },
  );
}

/** Each place (file:line and the type) where an expression of `files` outside HOME holds a handle of node:fs. */
function handlesHeld(built: ts.Program, files: string[]): string[] {
  const checker = built.getTypeChecker();
  const found: string[] = [];
  const isHandle = (type: ts.Type): boolean => {
    const plain = checker.getNonNullableType(type);
    if (plain.isUnion()) return plain.types.some(isHandle);
    const name = (plain.aliasSymbol ?? plain.getSymbol())?.getName();
    return name !== undefined && HANDLE_TYPES.has(name);
  };
  for (const file of files) {
    if (file === HOME) continue;
    const source = built.getSourceFile(join(repoRoot, file))!;
    const visit = (node: ts.Node): void => {
      if (ts.isTypeNode(node) || ts.isImportDeclaration(node)) return;
      if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isCallExpression(node)) {
        const type = checker.getTypeAtLocation(node);
        if (isHandle(type)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${file}:${line + 1} ${node.getText().slice(0, 40)}: ${checker.typeToString(type)}`);
          return;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('file handles', () => {
  it(`are held in ${HOME} only: no expression of src/ elsewhere is a FileHandle or a WriteStream`, async () => {
    const files = await sourceFiles('src');
    const built = program(files);
    expect(handlesHeld(built, files), `write through ${HOME}'s OpenFile instead`).toEqual([]);
  });

  it('finds a handle however it is reached: returned, stored, passed, or in a union', async () => {
    const fixture = 'test/layers/fixtures/holds-a-handle.ts';
    const built = program([fixture]);
    const lines = new Set(handlesHeld(built, [fixture]).map((place) => place.split(' ')[0]));
    expect([...lines]).toEqual([7, 8, 9, 10, 13].map((line) => `${fixture}:${line}`));
  });
});
