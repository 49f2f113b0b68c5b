// The code blocks of the README and the guides that ARE example files: a marker line
// `<!-- example: examples/<file> -->` and the fenced block right after it, whose content is the file's.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './paths.mjs';

const BLOCK = /<!-- example: (\S+) -->\n```(\w*)\n([\s\S]*?)```/g;

/** README.md and every Markdown file under docs/, as paths relative to the repository. */
export function documents(root = repoRoot) {
  const found = ['README.md'];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found.sort();
}

/**
 * Every example block of one document: the file it names and the code it shows.
 * @param {string} document
 * @returns {{ example: string, code: string }[]}
 */
export function exampleBlocks(document, root = repoRoot) {
  const text = readFileSync(join(root, document), 'utf8');
  return [...text.matchAll(BLOCK)].map((match) => ({ example: match[1] ?? '', code: match[3] ?? '' }));
}

/**
 * Rewrites each example block from its file. Returns the blocks that differed, as
 * `{ document, example }`; with `write: false` it only reports them.
 */
export function refreshExampleBlocks({ write = true, root = repoRoot } = {}) {
  const stale = [];
  for (const document of documents(root)) {
    const text = readFileSync(join(root, document), 'utf8');
    const next = text.replace(BLOCK, (whole, example, lang, code) => {
      const source = readFileSync(join(root, example), 'utf8');
      const body = source.endsWith('\n') ? source : `${source}\n`;
      if (code === body) return whole;
      stale.push({ document: relative(root, join(root, document)), example });
      return `<!-- example: ${example} -->\n\`\`\`${lang}\n${body}\`\`\``;
    });
    if (write && next !== text) writeFileSync(join(root, document), next);
  }
  return stale;
}

/**
 * Code with its comments and blank lines taken out, to compare a block whose comments were translated
 * with its original: block comments, `//` comments (TypeScript) and `#` comments (shell), the
 * last two only where they start a line or follow a space, so that `https://…` and `repo.git#v1` are code.
 * @param {string} code
 */
export function withoutComments(code) {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) =>
      line
        .replace(/\/\*.*?\*\//g, '')
        .replace(/(^|\s)(\/\/|#).*$/, '')
        .trimEnd(),
    )
    .filter((line) => line !== '')
    .join('\n');
}
