// A matrix test: building a program of src/ with its types costs about 10 s of CPU.
// One way to write the counts of a line: a message that writes one count with src/words.ts (`n`,
// `plural`: 1,000 lines, 1 page) writes every number in it that way, so a line never reads
// "1,000 lines: 999 valid, 1000 invalid". Read from the types of src/: every template literal with
// a span through n() or plural() has no other span whose type is a number.
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const WORDS = new Set(['n', 'plural']);

function throughWords(expression: ts.Expression): boolean {
  return (
    ts.isCallExpression(expression) && ts.isIdentifier(expression.expression) && WORDS.has(expression.expression.text)
  );
}

/** Each template literal of `files` that writes a count with n()/plural() and another number as it is. */
function mixedCounts(program: ts.Program, files: readonly string[]): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`not in the program: ${file}`);
    const visit = (node: ts.Node): void => {
      if (ts.isTemplateExpression(node)) {
        const spans = node.templateSpans.map((span) => span.expression);
        if (spans.some(throughWords)) {
          for (const span of spans) {
            if (throughWords(span)) continue;
            const type = checker.getTypeAtLocation(span);
            if (type.flags & ts.TypeFlags.NumberLike) {
              const { line } = source.getLineAndCharacterOfPosition(span.getStart());
              found.push(`${file.slice(repoRoot.length + 1)}:${line + 1}: \${${span.getText()}}`);
            }
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function programOf(files: string[]): ts.Program {
  const config = ts.readConfigFile(join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

const fixture = join(repoRoot, 'test/layers/fixtures/mixed-counts.ts');
const sources = ts.sys
  .readDirectory(join(repoRoot, 'src'), ['.ts'], undefined, undefined)
  .filter((file) => !file.includes('/generated/'));
// One program for both tests: building it is most of the cost.
let program: ts.Program | undefined;
const shared = () => (program ??= programOf([...sources, fixture]));

describe('counts in a line', () => {
  it('finds a number written beside a count of n() (the rule can fail)', () => {
    expect(mixedCounts(shared(), [fixture])).toEqual([
      'test/layers/fixtures/mixed-counts.ts:6: ${bad}',
      'test/layers/fixtures/mixed-counts.ts:8: ${list.length}',
    ]);
  }, 60_000);

  it('src/: a line that writes a count with n() or plural() writes every number that way', () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(mixedCounts(shared(), sources)).toEqual([]);
  }, 60_000);
});
