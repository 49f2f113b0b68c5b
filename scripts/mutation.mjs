#!/usr/bin/env node
// `npm run test:mutation [-- --mutate src/redact.ts]`: StrykerJS over src/ (without src/generated/),
// on Node 22 (StrykerJS 10 needs it; the registry's `node` package provides it), then the per-file
// scores into TESTING.md. StrykerJS is a tool of the tool cache (tools/stryker, installed on first
// need by scripts/lib/tools.mjs); its vitest runner uses the repository's vitest. Incremental: only
// mutants whose code or tests changed since reports/mutation/incremental.json (this machine's, not
// committed; without it every mutant runs) are run again.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './lib/paths.mjs';
import { writeMutationReport } from './lib/mutation-report.mjs';
import { toolFile } from './lib/tools.mjs';
import config from '../stryker.config.mjs';

const NODE = 'node@22';
const passed = process.argv.slice(2);
// `-- --tests 'test/auth/**,test/client/token-*.test.ts'`: only those tests run against the mutants
// (vitest.mutation.config.ts reads them from MUTATION_TESTS). A run of one folder against its own
// tests takes seconds per file instead of the whole suite per mutant; its scores are lower bounds.
const testsAt = passed.indexOf('--tests');
if (testsAt >= 0) {
  const globs = passed[testsAt + 1];
  if (!globs || globs.startsWith('--')) {
    console.error("--tests needs a comma-separated list of test globs, e.g. --tests 'test/auth/**'");
    process.exit(2);
  }
  process.env.MUTATION_TESTS = globs;
}
const strykerArgs = testsAt >= 0 ? [...passed.slice(0, testsAt), ...passed.slice(testsAt + 2)] : passed;
// `-- --table-only`: re-render TESTING.md from the committed scores (after adding or removing a source file).
if (passed.includes('--table-only')) {
  console.log(`TESTING.md: ${await writeMutationReport({ command: '', tableOnly: true })} files listed`);
  process.exit(0);
}
const stryker = await toolFile('stryker', join('@stryker-mutator', 'core', 'bin', 'stryker.js'));
const args = ['-y', NODE, stryker, 'run', ...strykerArgs];
// At the lowest priority where `nice` exists: a run takes long, and the machine stays usable meanwhile.
const [command, commandArgs] = process.platform === 'win32' ? ['npx', args] : ['nice', ['-n', '19', 'npx', ...args]];

console.log(`> ${command} ${commandArgs.join(' ')}`);
const child = spawn(command, commandArgs, { cwd: repoRoot, stdio: 'inherit' });
// Stop StrykerJS (and its test workers) with us.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => child.kill(signal));
const code = await new Promise((resolve) =>
  child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
);
if (code !== 0) {
  console.error(`StrykerJS failed (exit ${code}); TESTING.md was not changed.`);
  process.exit(code);
}
const mutateAt = strykerArgs.findIndex((arg) => arg === '--mutate' || arg === '-m');
const mutate = mutateAt >= 0 ? (strykerArgs[mutateAt + 1] ?? '').split(',') : config.mutate;
const rows = await writeMutationReport({
  command: `npm run test:mutation${passed.length ? ` -- ${passed.join(' ')}` : ''}`,
  mutate,
});
console.log(`TESTING.md: ${rows} files scored`);
