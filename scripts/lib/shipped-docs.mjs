// The documents the package ships beside dist/: the guides, the examples, the hand-written spec, the
// changelog and the security notes that README.md links to, so that a reader in node_modules (or on a
// package CDN) can follow the README's links. package.json `files` lists them; this module copies
// what it lists into the staged package (scripts/lib/stage.mjs) and is what the link checks read
// (test/package/documents.test.ts).
//
// A shipped document may link to a file only the repository has (CONTRIBUTING.md, TESTING.md, src/…).
// In the staged copy such a link becomes plain text that names the file and says where it lives, so
// that the package holds no link that leads nowhere; the repository's copy keeps its link.
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { repoRoot } from './paths.mjs';

/** Entries of `files` that the build writes rather than copies. */
const BUILT = new Set(['dist']);

/** Folders never shipped, wherever they are (examples/ has a vite cache under node_modules). */
const SKIPPED_FOLDERS = new Set(['node_modules']);

/** What `files` lists besides dist/: the documents, each a file or a folder of the repository. */
export function documentEntries(manifest) {
  return manifest.files.filter((entry) => !BUILT.has(entry));
}

/** Every file below the entries (repository-relative, `/`-separated), dot files and node_modules left out. */
export async function documentFiles(entries, root = repoRoot) {
  const files = [];
  const walk = async (path) => {
    const info = await stat(join(root, path));
    if (!info.isDirectory()) return void files.push(path);
    for (const name of (await readdir(join(root, path))).sort()) {
      if (name.startsWith('.') || SKIPPED_FOLDERS.has(name)) continue;
      await walk(posix.join(path, name));
    }
  };
  for (const entry of entries) await walk(entry);
  return files;
}

/** Fenced code blocks (``` or ~~~), whose brackets are code, not links. */
const FENCE = /^(```|~~~)/;
/** `[text](target)`, not an image; the target has no spaces (none of ours does). */
const LINK = /(?<!!)\[([^\]\n]*)\]\(([^)\s]+)\)/g;

/** Calls `visit(match, text, target, line)` for each link outside code; returns the text with each replaced by what it returns. */
export function mapLinks(markdown, visit) {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line, index) => {
      if (FENCE.test(line.trimStart())) fenced = !fenced;
      if (fenced || FENCE.test(line.trimStart())) return line;
      return line.replace(LINK, (match, text, target) => visit(match, text, target, index + 1) ?? match);
    })
    .join('\n');
}

/** A link that leaves the document set: a URL, a mail address, or a link within the same page. */
export const isExternal = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#');

/** The repository-relative path a relative link from `from` points at (its `#fragment` apart). */
export function resolveLink(from, target) {
  const [path, fragment] = target.split('#', 2);
  const resolved = posix.normalize(posix.join(posix.dirname(from), decodeURI(path)));
  return { path: resolved.replace(/\/$/, ''), fragment };
}

/** The Portuguese documents say where a repository-only file is in Portuguese. */
const inRepository = (from) =>
  from.startsWith('docs/guias/') || from.startsWith('examples/pt-BR/') ? 'só no repositório' : 'repository only';

/**
 * The shipped copy of one document: each relative link to a file outside `shipped` (a Set of
 * repository-relative paths, folders included) becomes its text and the file's path.
 */
export function shippedMarkdown(markdown, from, shipped) {
  return mapLinks(markdown, (_match, text, target) => {
    if (isExternal(target)) return undefined;
    const { path } = resolveLink(from, target);
    if (shipped.has(path)) return undefined;
    const label = text.replaceAll('`', '').replace(/\/$/, '');
    const named = label === path || label === posix.basename(path);
    return named ? `${text} (${inRepository(from)})` : `${text} (\`${path}\`, ${inRepository(from)})`;
  });
}

/** Every path the package holds below the entries, each folder on the way included (README links `examples/`). */
export function shippedPaths(files) {
  const paths = new Set(['README.md', 'LICENSE', 'package.json']);
  for (const file of files) {
    for (let path = file; path !== '.'; path = posix.dirname(path)) paths.add(path);
  }
  return paths;
}

/** Copies the documents `manifest.files` lists into `stage`, their links to repository-only files made plain text. */
export async function stageDocuments(stage, manifest) {
  const files = await documentFiles(documentEntries(manifest));
  const shipped = shippedPaths(files);
  for (const file of files) {
    await mkdir(dirname(join(stage, file)), { recursive: true });
    if (file.endsWith('.md')) {
      const text = await readFile(join(repoRoot, file), 'utf8');
      await writeFile(join(stage, file), shippedMarkdown(text, file, shipped));
    } else {
      await copyFile(join(repoRoot, file), join(stage, file));
    }
  }
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  await writeFile(join(stage, 'README.md'), shippedMarkdown(readme, 'README.md', shipped));
  return files;
}
