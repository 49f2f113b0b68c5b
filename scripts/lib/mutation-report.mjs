// Turns StrykerJS's JSON report into the table of TESTING.md. Scores are kept per file in
// reports/mutation/scores.json, so a run over a few files (`-- --mutate src/redact.ts`) updates
// their rows and leaves the others, each row dated by the run that measured it.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, matchesGlob, relative } from 'node:path';
import { calculateMutationTestMetrics } from 'mutation-testing-metrics';
import { repoRoot } from './paths.mjs';

export const REPORT = join(repoRoot, 'reports', 'mutation', 'mutation.json');
export const SCORES = join(repoRoot, 'reports', 'mutation', 'scores.json');
export const TESTING = join(repoRoot, 'TESTING.md');
const START = '<!-- mutation-table:start -->';
const END = '<!-- mutation-table:end -->';
const PENDING_START = '<!-- mutation-pending:start -->';
const PENDING_END = '<!-- mutation-pending:end -->';

/** Replaces what stands between two markers of a page. */
function between(page, start, end, content) {
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`TESTING.md lacks the ${start} … ${end} markers`);
  return `${page.slice(0, from + start.length)}\n${content}\n${page.slice(to)}`;
}

/** The files not measured yet, one line each. */
export const renderPending = (scores) =>
  Object.keys(scores)
    .filter((file) => scores[file].measured === false)
    .sort()
    .map((file) => `- \`${file}\``)
    .join('\n');

/**
 * Code that guards secrets and transport safety must kill every mutant: redaction, the plain-http
 * check (client options), the transport (its redirect rule decides where the bearer token may go), the
 * token handling (the client's token checks and client credentials). Every other file: at least 85 %.
 */
export const STRICT_FILES = ['src/redact.ts', 'src/loopback.ts', 'src/client/options.ts', 'src/client/token.ts'];
const STRICT_FOLDERS = ['src/auth/', 'src/transport/'];
export const barOf = (file) =>
  STRICT_FILES.includes(file) || STRICT_FOLDERS.some((folder) => file.startsWith(folder)) ? 100 : 85;

/** Per-file counts and score of a StrykerJS report. */
export function scoresOf(report) {
  const { systemUnderTestMetrics } = calculateMutationTestMetrics(report);
  const rows = {};
  const walk = (node, prefix) => {
    for (const child of node.childResults) {
      const path = prefix ? `${prefix}/${child.name}` : child.name;
      if (child.file) {
        const m = child.metrics;
        rows[child.file.name ?? path] = {
          killed: m.killed,
          timeout: m.timeout,
          survived: m.survived,
          noCoverage: m.noCoverage,
          ignored: m.ignored,
          valid: m.totalValid,
          score: Number.isNaN(m.mutationScore) ? 100 : Math.round(m.mutationScore * 10) / 10,
        };
      } else walk(child, path);
    }
  };
  walk(systemUnderTestMetrics, '');
  return rows;
}

// Every file StrykerJS mutates: the .ts files of src/, without src/generated/ and declarations.
export async function sourceFiles(dir = join(repoRoot, 'src')) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(repoRoot, path).split('\\').join('/');
    if (entry.isDirectory()) {
      if (rel !== 'src/generated') out.push(...(await sourceFiles(path)));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out.sort();
}

const NO_MUTANTS = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, valid: 0, score: 100 };

/** Whether StrykerJS's `mutate` patterns (globs, `!` to leave out, `file:lines` ranges) select a file. */
export function mutatedBy(patterns, file) {
  let selected = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const glob = (negated ? pattern.slice(1) : pattern).replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, '');
    if (matchesGlob(file, glob)) selected = !negated;
  }
  return selected;
}

const COUNTS = ['killed', 'timeout', 'survived', 'noCoverage', 'ignored', 'valid'];
const sameCounts = (a, b) => COUNTS.every((key) => a[key] === b[key]);

/** A measured row at or above its bar. */
export const meetsBar = (file, row) => row.measured !== false && row.score >= barOf(file);

export function renderTable(scores) {
  const lines = [
    '| file | score | bar | killed | timed out | survived | no coverage | ignored | measured | command |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const file of Object.keys(scores).sort()) {
    const s = scores[file];
    if (s.measured === false) {
      lines.push(`| \`${file}\` | not measured | ${barOf(file)} % | | | | | | | |`);
      continue;
    }
    // Only types or re-exports: StrykerJS finds nothing to mutate, which is a result, not a gap.
    if (s.valid === 0 && s.ignored === 0) {
      lines.push(`| \`${file}\` | no mutants | ${barOf(file)} % | 0 | 0 | 0 | 0 | 0 | ${s.date} | \`${s.command}\` |`);
      continue;
    }
    const verdict = s.score >= barOf(file) ? '' : ' ✗';
    lines.push(
      `| \`${file}\` | ${s.score.toFixed(1)} %${verdict} | ${barOf(file)} % | ${s.killed} | ${s.timeout} | ${s.survived} | ${s.noCoverage} | ${s.ignored} | ${s.date} | \`${s.command}\` |`,
    );
  }
  return lines.join('\n');
}

/**
 * Merges the last run's report (unless `tableOnly`) into the per-file scores, adds a "not measured"
 * row for every source file without one, drops rows of files that are gone, and renders TESTING.md.
 */
/**
 * The rows a run changes. StrykerJS's report also carries the files it did not mutate this time, with
 * results reused from the incremental file (and counted against this run's narrower tests): with a
 * `--mutate` given, only the files it selects take this run's results.
 *
 * @param {{ previous: Record<string, any>, scores: Record<string, any>, fresh: Record<string, any>, mutate?: string[], date: string, command: string }} input
 * @returns {Record<string, any>}
 */
export function mergeScores({ previous, scores, fresh, mutate = [], date, command }) {
  const changed = {};
  for (const [name, row] of Object.entries(fresh)) {
    const file = name.replace(/^.*?(src\/)/, 'src/');
    if (!(file in scores)) continue;
    if (mutate.length > 0 && !mutatedBy(mutate, file)) continue;
    // A row whose results the run only confirmed (incremental reuse, or the same counts again)
    // keeps the date and command that measured it.
    const before = previous[file];
    changed[file] = before && before.measured !== false && sameCounts(before, row) ? before : { ...row, date, command };
  }
  // StrykerJS leaves out of its report the files it was asked to mutate and found nothing in
  // (types, re-exports): they were measured, with no mutants.
  const freshFiles = new Set(Object.keys(fresh).map((name) => name.replace(/^.*?(src\/)/, 'src/')));
  for (const file of Object.keys(scores)) {
    if (!freshFiles.has(file) && mutatedBy(mutate, file)) changed[file] = { ...NO_MUTANTS, date, command };
  }
  return changed;
}

export async function writeMutationReport({
  command,
  mutate = [],
  tableOnly = false,
  date = new Date().toISOString().slice(0, 10),
}) {
  const previous = JSON.parse(await readFile(SCORES, 'utf8').catch(() => '{}'));
  const scores = {};
  for (const file of await sourceFiles()) scores[file] = previous[file] ?? { measured: false };
  if (!tableOnly) {
    const fresh = scoresOf(JSON.parse(await readFile(REPORT, 'utf8')));
    Object.assign(scores, mergeScores({ previous, scores, fresh, mutate, date, command }));
  }
  await writeFile(SCORES, `${JSON.stringify(scores, null, 2)}\n`);
  const page = await readFile(TESTING, 'utf8');
  await writeFile(
    TESTING,
    between(between(page, START, END, renderTable(scores)), PENDING_START, PENDING_END, renderPending(scores)),
  );
  return Object.keys(scores).length;
}
