// The README's "Use it in your project" section, read as data: its example files and its listing of
// what `npm pack` ships, so the tests can hold the README to what the package really does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const SECTION = '## Use it in your project';

/** A top-level section of the README (default "Use it in your project"), up to the next `## `. */
export function readmeSection(section = SECTION): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n${section}\n`);
  if (start < 0) throw new Error(`README.md has no "${section}" section`);
  const end = readme.indexOf('\n## ', start + section.length + 2);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Every ```ts block whose first line is `// <file name>.ts`: the file a reader would create. */
export function exampleFiles(section = readmeSection()): { name: string; code: string }[] {
  return [...section.matchAll(/```ts\n\/\/ ([\w.-]+\.ts)\n([\s\S]*?)```/g)].map((match) => ({ name: match[1]!, code: match[2]! }));
}

/** The plain code block under "What `npm pack` ships". */
export function packListing(section = readmeSection()): string {
  const ships = section.slice(section.indexOf('### What `npm pack` ships'));
  return /```\n([\s\S]*?)```/.exec(ships)?.[1] ?? '';
}
