// The README's "Use it in your project" section (now in a guide under docs/guides/), read as data: its
// example files and its listing of what `npm pack` ships, so the tests can hold the docs to what the
// package really does.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const SECTION = '## Use it in your project';

const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs/guides'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/guides/${name}`),
];

/** A top-level section of the README or a guide (default "Use it in your project"), up to the next `## `. */
export function readmeSection(section = SECTION): string {
  const readme =
    DOCUMENTS.map((document) => readFileSync(join(repoRoot, document), 'utf8')).find((text) =>
      text.includes(`\n${section}\n`),
    ) ?? '';
  const start = readme.indexOf(`\n${section}\n`);
  if (start < 0) throw new Error(`Neither README.md nor docs/guides/ has a "${section}" section`);
  const end = readme.indexOf('\n## ', start + section.length + 2);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Every ```ts block whose first line is `// <file name>.ts`: the file a reader would create. */
export function exampleFiles(section = readmeSection()): { name: string; code: string }[] {
  return [...section.matchAll(/```ts\n\/\/ ([\w.-]+\.ts)\n([\s\S]*?)```/g)].map((match) => ({
    name: match[1]!,
    code: match[2]!,
  }));
}

/** The plain code block under "What `npm pack` ships". */
export function packListing(section = readmeSection()): string {
  const ships = section.slice(section.indexOf('### What `npm pack` ships'));
  return /```\n([\s\S]*?)```/.exec(ships)?.[1] ?? '';
}
