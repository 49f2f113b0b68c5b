#!/usr/bin/env node
// `npm run test:mutation [-- --mutate src/redact.ts]`: StrykerJS over src/ (without src/generated/),
// on Node 22 (StrykerJS 10 needs it; the registry's `node` package provides it, so nothing else has
// to be installed), then the per-file scores into TESTING.md. Incremental: only mutants whose code
// or tests changed since reports/mutation/incremental.json are run again.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './lib/paths.mjs';
import { writeMutationReport } from './lib/mutation-report.mjs';

const NODE = 'node@22';
const stryker = join(repoRoot, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
const passed = process.argv.slice(2);
// `-- --table-only`: re-render TESTING.md from the committed scores (after adding or removing a source file).
if (passed.includes('--table-only')) {
  console.log(`TESTING.md: ${await writeMutationReport({ command: '', tableOnly: true })} files listed`);
  process.exit(0);
}
const args = ['-y', NODE, stryker, 'run', ...passed];
// At the lowest priority where `nice` exists: a run takes long, and the machine stays usable meanwhile.
const [command, commandArgs] = process.platform === 'win32' ? ['npx', args] : ['nice', ['-n', '19', 'npx', ...args]];

console.log(`> ${command} ${commandArgs.join(' ')}`);
const child = spawn(command, commandArgs, { cwd: repoRoot, stdio: 'inherit' });
// Stop StrykerJS (and its test workers) with us.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => child.kill(signal));
const code = await new Promise((resolve) => child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
if (code !== 0) {
  console.error(`StrykerJS failed (exit ${code}); TESTING.md was not changed.`);
  process.exit(code);
}
const rows = await writeMutationReport({ command: `npm run test:mutation${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}` });
console.log(`TESTING.md: ${rows} files scored`);
