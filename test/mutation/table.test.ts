// Keeps TESTING.md's mutation table honest: every source file has a row; a measured file below its
// bar names its surviving mutants with the reason each is equivalent; a file not measured yet is
// listed as such, with the reason, never left out.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  barOf,
  meetsBar,
  mergeScores,
  mutatedBy,
  renderTable,
  scoresOf,
  SCORES,
  sourceFiles,
  TESTING,
} from '../../scripts/lib/mutation-report.mjs';

interface Row {
  measured?: false;
  score: number;
  killed: number;
  survived: number;
  ignored?: number;
}

const scores = JSON.parse(await readFile(SCORES, 'utf8')) as Record<string, Row>;
const page = await readFile(TESTING, 'utf8');
const section = (title: string): string => page.split(/^## /m).find((part) => part.startsWith(title)) ?? '';

describe('TESTING.md mutation table', () => {
  it('has a row for every file of src/ outside src/generated/, and none for files that are gone', async () => {
    const files = await sourceFiles();
    expect(Object.keys(scores).sort(), 'run `npm run test:mutation -- --table-only` to add the new files').toEqual(
      files,
    );
    for (const file of files) expect(page).toContain(`| \`${file}\` |`);
  });

  it('is the table the scores file renders', () => {
    expect(page).toContain(renderTable(scores));
  });

  it('names the surviving mutants of every measured file below its bar, with a reason', () => {
    const survivors = section('Surviving mutants');
    for (const [file, row] of Object.entries(scores)) {
      if (row.measured === false || meetsBar(file, row)) continue;
      expect(
        survivors,
        `${file} is below its bar (${row.score} % < ${barOf(file)} %) and TESTING.md does not explain its survivors`,
      ).toMatch(new RegExp(`^### \`${file.replace(/[.]/g, '\\.')}\`\\n(?:.*\\n)*?- .+: .+`, 'm'));
    }
  });

  it('says why each file with ignored mutants (`// Stryker disable`) leaves them out', () => {
    const survivors = section('Surviving mutants');
    for (const [file, row] of Object.entries(scores)) {
      if (row.measured === false || !row.ignored) continue;
      expect(survivors, `${file} has ${row.ignored} ignored mutants and TESTING.md does not say why`).toMatch(
        new RegExp(`^### \`${file.replace(/[.]/g, '\\.')}\`\n(?:.*\n)*?- .+: .+`, 'm'),
      );
    }
  });

  it('lists every file not measured yet under "Not measured yet", with the reason', () => {
    const pending = section('Not measured yet');
    for (const [file, row] of Object.entries(scores)) {
      if (row.measured === false)
        expect(pending, `${file} is not measured and not listed under "Not measured yet"`).toContain(`\`${file}\``);
    }
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
        mutants: [
          mutant('1', 'Killed'),
          mutant('2', 'Killed'),
          mutant('3', 'Timeout'),
          mutant('4', 'Survived'),
          mutant('5', 'NoCoverage'),
          mutant('6', 'Ignored'),
        ],
      },
      'src/b/c.ts': { language: 'typescript', source: 'x', mutants: [mutant('7', 'Killed')] },
    },
  };

  it('counts detected over valid mutants per file, ignored ones left out', () => {
    const rows = scoresOf(report) as Record<
      string,
      Row & { timeout: number; noCoverage: number; ignored: number; valid: number }
    >;
    expect(rows['src/a.ts']).toEqual({
      killed: 2,
      timeout: 1,
      survived: 1,
      noCoverage: 1,
      ignored: 1,
      valid: 5,
      score: 60,
    });
    expect(rows['src/b/c.ts']).toMatchObject({ killed: 1, valid: 1, score: 100 });
  });

  it('marks a row under its bar, and one not measured', () => {
    const table = renderTable({
      'src/redact.ts': {
        score: 99,
        killed: 99,
        timeout: 0,
        survived: 1,
        noCoverage: 0,
        ignored: 0,
        date: '2026-01-01',
        command: 'x',
      },
      'src/x.ts': { measured: false },
    });
    expect(table).toContain('| `src/redact.ts` | 99.0 % ✗ | 100 % |');
    expect(table).toContain('| `src/x.ts` | not measured | 85 % |');
  });

  it('shows a file with nothing to mutate as "no mutants", not as a score', () => {
    const table = renderTable({
      'src/types.ts': {
        score: 100,
        killed: 0,
        timeout: 0,
        survived: 0,
        noCoverage: 0,
        ignored: 0,
        valid: 0,
        date: '2026-01-01',
        command: 'x',
      },
    });
    expect(table).toContain('| `src/types.ts` | no mutants | 85 % | 0 | 0 | 0 | 0 | 0 | 2026-01-01 | `x` |');
  });
});

describe('mutatedBy (which files a run measured, for rows of files with nothing to mutate)', () => {
  const config = ['src/**/*.ts', '!src/generated/**', '!src/**/*.d.ts'];

  it('follows the globs in order, a later `!` leaving a file out', () => {
    expect(mutatedBy(config, 'src/types.ts')).toBe(true);
    expect(mutatedBy(config, 'src/generated/schema.ts')).toBe(false);
    expect(mutatedBy(['!src/types.ts', 'src/**/*.ts'], 'src/types.ts')).toBe(true);
    expect(mutatedBy(['src/logging/*.ts'], 'src/types.ts')).toBe(false);
    expect(mutatedBy([], 'src/types.ts')).toBe(false);
  });

  it('reads a line range as its file', () => {
    expect(mutatedBy(['src/redact.ts:10-20'], 'src/redact.ts')).toBe(true);
    expect(mutatedBy(['src/redact.ts:10:2-20:5'], 'src/redact.ts')).toBe(true);
  });
});

describe('mergeScores (the rows a run changes)', () => {
  const row = (killed: number, survived: number) => ({
    killed,
    timeout: 0,
    survived,
    noCoverage: 0,
    ignored: 0,
    valid: killed + survived,
    score: (100 * killed) / (killed + survived),
  });
  const old = { ...row(9, 1), date: '2026-01-01', command: 'old' };
  const scores = { 'src/a.ts': old, 'src/b.ts': old, 'src/types-only.ts': { measured: false as const } };
  const merge = (fresh: Record<string, unknown>, mutate: string[]) =>
    mergeScores({ previous: scores, scores, fresh, mutate, date: '2026-11-24', command: 'new' });

  it('takes results only for the files the run was asked to mutate, not the ones it reused', () => {
    const changed = merge({ 'src/a.ts': row(10, 0), 'src/b.ts': row(5, 5) }, ['src/a.ts', 'src/types-only.ts']);
    expect(Object.keys(changed).sort()).toEqual(['src/a.ts', 'src/types-only.ts']);
    expect(changed['src/a.ts']).toMatchObject({ killed: 10, command: 'new' });
    expect(changed['src/types-only.ts']).toMatchObject({ valid: 0, score: 100, command: 'new' });
  });

  it('keeps the date and command of a row the run only confirmed; a whole run takes every file', () => {
    const changed = merge({ 'src/a.ts': row(9, 1), 'src/b.ts': row(5, 5) }, ['src/**/*.ts']);
    expect(changed['src/a.ts']).toBe(old);
    expect(changed['src/b.ts']).toMatchObject({ survived: 5, command: 'new' });
  });
});
