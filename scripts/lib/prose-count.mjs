// How much of the suite pins prose: the expect statements of each test file, and those carrying a
// literal (string, template or regular expression) of five words or more. Such a literal usually
// matches a sentence, so rewording a message breaks the test; TESTING.md says where formats are pinned.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export const PROSE_WORDS = 5;

const words = (text) => text.trim().split(/\s+/).filter(Boolean).length;

/** True when the node, or any node inside it, is a literal of PROSE_WORDS words or more. */
function carriesProse(node) {
  let found = false;
  const scan = (x) => {
    if (found) return;
    if (ts.isStringLiteral(x) || ts.isNoSubstitutionTemplateLiteral(x)) found = words(x.text) >= PROSE_WORDS;
    // A placeholder counts as one word: `${url} failed: ${detail}` is three.
    else if (ts.isTemplateExpression(x)) found = words(x.getText().replace(/\$\{[^}]*\}/g, 'X')) >= PROSE_WORDS;
    // `\s+` between words still separates them.
    else if (ts.isRegularExpressionLiteral(x)) found = words(x.text.replace(/\\s[+*]?|\\/g, ' ')) >= PROSE_WORDS;
    if (!found) ts.forEachChild(x, scan);
  };
  scan(node);
  return found;
}

/** Counts one file's text: `{ expects, prose }`, plus the lines of the prose ones. */
export function countSource(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const result = { expects: 0, prose: 0, lines: [] };
  const visit = (node) => {
    // One expect statement, chained matchers and all; `await expect(...)` too.
    if (ts.isExpressionStatement(node) && /^\s*(await\s+)?expect\b/.test(node.getText())) {
      result.expects += 1;
      if (carriesProse(node)) {
        result.prose += 1;
        result.lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return result;
}

/** Every `*.test.ts` under `<root>/test`, as paths relative to root, sorted. */
export function testFiles(root) {
  return readdirSync(join(root, 'test'), { recursive: true })
    .map((name) => join('test', String(name)).split('\\').join('/'))
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
}

/** The counts of every test file under root: `{ expects, prose, files: [{ file, expects, prose, lines }] }`. */
export function countSuite(root) {
  const files = testFiles(root).map((file) => ({ file, ...countSource(file, readFileSync(join(root, file), 'utf8')) }));
  return {
    expects: files.reduce((sum, f) => sum + f.expects, 0),
    prose: files.reduce((sum, f) => sum + f.prose, 0),
    files,
  };
}
