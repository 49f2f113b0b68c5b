#!/usr/bin/env node
// `npm run test:all`: everything, in four steps that each print where they are — the tool cache
// filled (scripts/tools.mjs), `npm test` (the quick suite), `npm run check` (type check, lint, lock
// file, generated files, API reports, examples), then the matrix
// (vitest.matrix.config.ts, its reporter printing each test as it ends). Stops at the first failure.
import { spawn } from 'node:child_process';
import { repoRoot } from './lib/paths.mjs';

const steps = [
  ['the tool cache', 'node', ['scripts/tools.mjs']],
  ['npm test', 'npm', ['test']],
  ['npm run check', 'npm', ['run', 'check']],
  ['the matrix', 'npx', ['vitest', 'run', '--config', 'vitest.matrix.config.ts', ...process.argv.slice(2)]],
];
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
for (const [index, [name, command, args]] of steps.entries()) {
  const stepStarted = Date.now();
  console.log(`\n=== [${index + 1}/${steps.length}] ${name}: ${command} ${args.join(' ')}`);
  const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => child.kill(signal));
  const code = await new Promise((resolve) =>
    child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
  );
  console.log(
    `=== [${index + 1}/${steps.length}] ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds(stepStarted)}`,
  );
  if (code !== 0) process.exit(code);
}
console.log(`\n=== test:all passed in ${seconds(started)}`);
