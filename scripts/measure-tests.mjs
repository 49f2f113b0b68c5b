#!/usr/bin/env node
// `npm run test:measure [-- command…]`: runs `npm test` (or the command given) and prints its wall
// clock, its CPU time (user plus system, of every process it started and waited for, from the kernel's
// counts in /proc/self/stat) and the 1-minute load average before and after. CPU time is the figure to
// compare across runs on a busy machine; wall clock means something only beside the load average.
// BENCHMARKS.md's figures for the test suite come from this script.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { repoRoot } from './lib/paths.mjs';

const TICKS_PER_SECOND = 100; // USER_HZ: Linux reports cutime and cstime in 1/100 s on every architecture.

/** The CPU seconds of this process's children that have been waited for: user and system. */
function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[13]) / TICKS_PER_SECOND, system: Number(fields[14]) / TICKS_PER_SECOND };
}

const [command, ...args] = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'test'];
const loadBefore = loadavg()[0];
const cpuBefore = childrenCpu();
const started = performance.now();
const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => child.kill(signal));
const code = await new Promise((resolve) =>
  child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
);
const wall = (performance.now() - started) / 1000;
const cpuAfter = childrenCpu();
const user = cpuAfter.user - cpuBefore.user;
const system = cpuAfter.system - cpuBefore.system;
const loadAfter = loadavg()[0];

const line =
  `${[command, ...args].join(' ')}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}; ` +
  `wall ${wall.toFixed(1)} s; CPU ${(user + system).toFixed(1)} s (user ${user.toFixed(1)} + system ${system.toFixed(1)}); ` +
  `1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; ` +
  `${cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}`;
console.error(`\n${line}`);
process.exit(code);
