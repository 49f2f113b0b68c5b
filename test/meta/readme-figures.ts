// The figures the README states (sizes, counts, times), each with where it comes from: a measurement
// in BENCHMARKS.md, a limit of the code, or what a script prints (checked in
// test/meta/readme-figures.matrix.test.ts). Every number with a unit in the README must be one of them,
// so a figure added without a source fails test/meta/readme-figures.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/paths.mjs';

export const readme = () => readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** A number, then a unit or a counted noun: `330 MB`, `60 s`, `100,000 accounts`, `1.2 MB`. */
export const FIGURE =
  /(?<![\w.,])(\d[\d,]*(?:\.\d+)?) ?(MB|GB|kB|KB|KiB|MiB|GiB|B|s|ms|%|files|accounts|keys|tests|minutes|clients)\b/g;

export const figuresOf = (text: string) =>
  [...text.matchAll(FIGURE)].map((match) => ({
    text: match[0],
    value: Number(match[1]!.replaceAll(',', '')),
    unit: match[2]!,
    /** The words around it, to tell which figure it is. */
    context: text.slice(Math.max(0, match.index - 120), match.index + match[0].length + 120),
  }));

/** A BENCHMARKS.md table row, by its first cell. */
export function benchmarkRow(first: string): string {
  const text = readFileSync(join(repoRoot, 'BENCHMARKS.md'), 'utf8');
  const row = text.split('\n').find((line) => line.startsWith(`| ${first} |`));
  if (!row) throw new Error(`BENCHMARKS.md has no row "${first}"`);
  return row;
}
