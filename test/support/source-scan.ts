// Reading src/ as text, for the tests that state a guard as a rule over the source (one retry loop,
// one request builder): which files there are, and their code without comments.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';

/** Every TypeScript file under `dir` (relative to the repository), src/generated/ left out, sorted. */
export async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(repoRoot, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('src/generated/'))
    .sort();
}

/** The file's code without its comments (a comment may name what the code must not do). */
const codeOf = async (file: string): Promise<string> =>
  (await readFile(join(repoRoot, file), 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** The files of `files` whose code matches `pattern`. */
export async function matching(files: string[], pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) if (pattern.test(await codeOf(file))) found.push(file);
  return found;
}
