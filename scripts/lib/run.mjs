import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

const bin = (name) => join(repoRoot, 'node_modules', '.bin', name);

/** Runs a command from the repo root; rejects with its output when it exits non-zero. */
export function run(command, args, { quiet = true, cwd = repoRoot } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${output}`));
    });
  });
}

export const redocly = (args, options) => run(bin('redocly'), args, options);
