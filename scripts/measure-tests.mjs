#!/usr/bin/env node
// `npm run test:measure [-- command…]`: runs `npm test` (or the command given) and measures its wall
// clock, its CPU time (user plus system, of every process it started and waited for, from the kernel's
// counts in /proc/self/stat) and the 1-minute load average before and after. CPU time is the figure to
// compare across runs on a busy machine; wall clock means something only beside the load average.
// vitest's own phases (transform, setup, import, tests, environment) are printed beside them; one
// project's figures: `npm run test:measure -- --no-record npx vitest run --project process`.
//
// It prints one line, and records it as the newest row of BENCHMARKS.md's table of test-suite runs
// (between the `test-runs` markers, newest first, the last RUNS_KEPT kept): BENCHMARKS.md's figures for
// the test suite come from this script, never by hand. `--no-record` (before the command) only prints.
// The verdict against the budget of issue 33 (npm test: at most 60 s of wall clock and 100 s of CPU on
// an idle 2-core machine) is given for `npm test` only, and said to be no verdict when the machine was
// not idle at the start.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './lib/paths.mjs';

const TICKS_PER_SECOND = 100; // USER_HZ: Linux reports cutime and cstime in 1/100 s on every architecture.
const BUDGET = { wall: 60, cpu: 100 };
/** A 1-minute load average under this at the start counts as an idle machine. */
const IDLE_LOAD = 1;
const RUNS_KEPT = 12;
const START = '<!-- test-runs:start -->';
const END = '<!-- test-runs:end -->';

/** The CPU seconds of this process's children that have been waited for: user and system. */
function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[13]) / TICKS_PER_SECOND, system: Number(fields[14]) / TICKS_PER_SECOND };
}

/** The commit measured, with `+changes` when the working tree differs from it (this script's own record
 * in BENCHMARKS.md aside, so that a second run on the same commit is not marked as changed). */
function gitCommit() {
  try {
    const run = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
    return `${run('rev-parse', '--short', 'HEAD')}${run('status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)BENCHMARKS.md') ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

const argv = process.argv.slice(2);
const record = argv[0] !== '--no-record';
if (!record) argv.shift();
const [command, ...args] = argv.length > 0 ? argv : ['npm', 'test'];
const commandText = [command, ...args].join(' ');

// The commit measured is the one checked out at the start (a commit made during the run is not it).
const commit = gitCommit();
const loadBefore = loadavg()[0];
const cpuBefore = childrenCpu();
const startedAt = new Date();
const started = performance.now();
// The output passes through as it comes, and is read for vitest's summary (files and tests).
// Read through a pipe, vitest would print without colours: a terminal's run keeps them.
const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;
const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['inherit', 'pipe', 'pipe'] });
let tail = '';
const keep = (chunk) => {
  tail = (tail + chunk.toString()).slice(-20_000);
};
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  keep(chunk);
});
child.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  keep(chunk);
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => child.kill(signal));
const code = await new Promise((resolve) =>
  child.once('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
);
const wall = (performance.now() - started) / 1000;
const cpuAfter = childrenCpu();
const user = cpuAfter.user - cpuBefore.user;
const system = cpuAfter.system - cpuBefore.system;
const cpu = user + system;
const loadAfter = loadavg()[0];

// vitest's summary lines, colours taken out: "Test Files  237 passed (237)", "Tests  3219 passed (3219)".
const plain = tail.replace(/\u001b\[[0-9;]*m/g, '');
const summary = (name) => new RegExp(`^\\s*${name}\\s+(.+?)\\s*$`, 'm').exec(plain)?.[1];
// "1 failed | 3178 passed (3179)": the bar would split a cell of BENCHMARKS.md's table.
const files = summary('Test Files')?.replace(/\s*\|\s*/g, ', ');
const tests = summary('Tests')?.replace(/\s*\|\s*/g, ', ');

// "Duration  52.81s (transform 10.07s, setup 2.26s, import 92.25s, tests 48.32s, environment 20ms)": where
// the time went beyond the tests themselves. Each phase is vitest's sum over the files of the time it
// took (wall clock, in every worker at once), not CPU: a phase's share, not its seconds, is the figure.
const phases = /\((transform [^)]*)\)/.exec(summary('Duration') ?? '')?.[1];

const result = code === 0 ? 'passed' : `FAILED (exit ${code})`;
const counts = [tests && `tests: ${tests}`, files && `files: ${files}`, phases && `vitest's phases: ${phases}`]
  .filter(Boolean)
  .join('; ');
const line =
  `${commandText}: ${result}${counts ? ` (${counts})` : ''}; ` +
  `wall ${wall.toFixed(1)} s; CPU ${cpu.toFixed(1)} s (user ${user.toFixed(1)} + system ${system.toFixed(1)}); ` +
  `1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; ` +
  `${cpus().length} cores, Node ${process.version}, ${startedAt.toISOString()}`;
console.error(`\n${line}`);

function verdict() {
  if (commandText !== 'npm test') return 'no budget';
  if (loadBefore >= IDLE_LOAD) return `no verdict: load ${loadBefore.toFixed(1)} at the start, not an idle machine`;
  const met = (value, budget) => (value <= budget ? 'met' : '**not met**');
  return `wall ${met(wall, BUDGET.wall)}, CPU ${met(cpu, BUDGET.cpu)}`;
}

if (record) {
  const file = join(repoRoot, 'BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end < start) {
    console.error(`BENCHMARKS.md has no ${START} … ${END} table: the run is not recorded.`);
  } else {
    const [header, rule, ...rows] = text
      .slice(start + START.length, end)
      .trim()
      .split('\n');
    const row =
      `| ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC | ${commit} | \`${commandText}\` | ` +
      `${result}${counts ? `; ${counts}` : ''} | ${wall.toFixed(1)} s | ${cpu.toFixed(1)} s (${user.toFixed(1)} + ${system.toFixed(1)}) | ` +
      `${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)} | ${cpus().length}, Node ${process.version} | ${verdict()} |`;
    const table = [header, rule, row, ...rows.filter((r) => r.startsWith('|'))].slice(0, RUNS_KEPT + 2);
    writeFileSync(file, `${text.slice(0, start + START.length)}\n${table.join('\n')}\n${text.slice(end)}`);
    console.error('recorded in BENCHMARKS.md ("The test suite")');
  }
}
process.exit(code);
