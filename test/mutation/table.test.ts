// Keeps TESTING.md's mutation table honest: every source file has a measured row, and a file below
// its bar names its surviving mutants with the reason each one is equivalent.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barOf, renderTable, scoresOf, SCORES, TESTING } from '../../scripts/lib/mutation-report.mjs';

const root = join(import.meta.dirname, '..', '..');

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (relative(root, path) !== join('src', 'generated')) out.push(...(await sourceFiles(path)));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(relative(root, path));
  }
  return out.sort();
}

interface Row {
  score: number;
  killed: number;
  survived: number;
}

describe('TESTING.md mutation table', () => {
  it('has a measured row for every file of src/ outside src/generated/', async () => {
    const scores = JSON.parse(await readFile(SCORES, 'utf8')) as Record<string, Row>;
    const page = await readFile(TESTING, 'utf8');
    for (const file of await sourceFiles(join(root, 'src'))) {
      expect(scores[file], `${file} has no mutation score: run npm run test:mutation -- --mutate ${file}`).toBeDefined();
      expect(page).toContain(`| \`${file}\` |`);
    }
  });

  it('names the surviving mutants of every file below its bar, with a reason', async () => {
    const scores = JSON.parse(await readFile(SCORES, 'utf8')) as Record<string, Row>;
    const page = await readFile(TESTING, 'utf8');
    for (const [file, row] of Object.entries(scores)) {
      if (row.score >= barOf(file)) continue;
      expect(page, `${file} is below its bar (${row.score} % < ${barOf(file)} %) and TESTING.md does not explain its survivors`).toMatch(
        new RegExp(`^### \`${file.replace(/[.]/g, '\\.')}\`\\n(?:.*\\n)*?- .+: .+`, 'm'),
      );
    }
  });

  it('is the table the scores file renders', async () => {
    const scores = JSON.parse(await readFile(SCORES, 'utf8'));
    const page = await readFile(TESTING, 'utf8');
    expect(page).toContain(renderTable(scores));
  });
});

describe('scoresOf', () => {
  const mutant = (id: string, status: string) => ({
    id,
    mutatorName: 'StringLiteral',
    replacement: '""',
    status,
    location: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } },
  });
  const report = {
    schemaVersion: '2',
    thresholds: { high: 90, low: 85 },
    files: {
      'src/a.ts': {
        language: 'typescript',
        source: 'x',
        mutants: [mutant('1', 'Killed'), mutant('2', 'Killed'), mutant('3', 'Timeout'), mutant('4', 'Survived'), mutant('5', 'NoCoverage'), mutant('6', 'Ignored')],
      },
      'src/b/c.ts': { language: 'typescript', source: 'x', mutants: [mutant('7', 'Killed')] },
    },
  };

  it('counts detected over valid mutants per file, ignored ones left out', () => {
    const rows = scoresOf(report) as Record<string, Row & { timeout: number; noCoverage: number; ignored: number; valid: number }>;
    expect(rows['src/a.ts']).toEqual({ killed: 2, timeout: 1, survived: 1, noCoverage: 1, ignored: 1, valid: 5, score: 60 });
    expect(rows['src/b/c.ts']).toMatchObject({ killed: 1, valid: 1, score: 100 });
  });

  it('marks a row under its bar', () => {
    const table = renderTable({ 'src/redact.ts': { score: 99, killed: 99, timeout: 0, survived: 1, noCoverage: 0, ignored: 0, date: '2026-01-01', command: 'x' } });
    expect(table).toContain('| `src/redact.ts` | 99.0 % ✗ | 100 % |');
  });
});
