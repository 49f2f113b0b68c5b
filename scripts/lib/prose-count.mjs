// How much of the suite pins prose: the expect statements of each test file, and those carrying a
// literal (string, template or regular expression) of five words or more. Such a literal usually
// matches a sentence, so rewording a message breaks the test; TESTING.md says where formats are pinned.
// Read with a lexer (source-tokens.mjs), not the TypeScript compiler: an expect statement is one that
// starts with `expect` or `await expect` where a statement starts, up to its `;` (Biome writes one).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenize } from './source-tokens.mjs';

export const PROSE_WORDS = 5;

const words = (text) => text.trim().split(/\s+/).filter(Boolean).length;

/** True when the literal token holds PROSE_WORDS words or more. */
function isProse(token) {
  if (token.type === 'string') return words(token.value) >= PROSE_WORDS;
  // A placeholder counts as one word: `${url} failed: ${detail}` is three.
  // (Counted over the template as written, its backticks included, as before the lexer.)
  if (token.type === 'template')
    return token.text.includes('${')
      ? words(token.text.replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, 'X')) >= PROSE_WORDS
      : words(token.text.slice(1, -1)) >= PROSE_WORDS;
  // `\s+` between words still separates them.
  if (token.type === 'regex')
    return words(token.text.slice(1, token.text.lastIndexOf('/')).replace(/\\s[+*]?|\\/g, ' ')) >= PROSE_WORDS;
  return false;
}

/** Where a statement may start: after these, or at the start of the file. */
const STATEMENT_BEFORE = new Set([';', '{', '}', ')', 'else', 'do']);

/** `expect(…)`, `expect.soft(…)`: the name used, not imported or declared. */
const CALLED = new Set(['(', '.']);

/** Counts one file's text: `{ expects, prose }`, plus the lines of the prose ones. */
export function countSource(_fileName, text) {
  const tokens = tokenize(text);
  const result = { expects: 0, prose: 0, lines: [] };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const before = tokens[i - 1];
    const startsStatement = !before || STATEMENT_BEFORE.has(before.text);
    const isExpect =
      token.type === 'name' &&
      ((token.text === 'expect' && CALLED.has(tokens[i + 1]?.text)) ||
        (token.text === 'await' && tokens[i + 1]?.text === 'expect' && CALLED.has(tokens[i + 2]?.text)));
    if (!startsStatement || !isExpect) continue;
    // One expect statement, chained matchers and all: up to its `;` outside any bracket.
    let depth = 0;
    let end = i;
    for (; end < tokens.length; end++) {
      const t = tokens[end];
      if (t.type !== 'punct') continue;
      if (t.text === '(' || t.text === '[' || t.text === '{') depth += 1;
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (depth === 0) break;
        depth -= 1;
      } else if (t.text === ';' && depth === 0) break;
    }
    result.expects += 1;
    if (tokens.slice(i, end).some(isProse)) {
      result.prose += 1;
      result.lines.push(token.line);
    }
    i = end;
  }
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
