// A command of the command line run as a user runs it (`npx baas-pix-contract …`, here the sources'
// bundle, test/support/cli.ts), in a child process tied to this one: its output lines kept, a wait for the line that says it is
// ready, and a stop (SIGTERM, then the exit awaited) that always runs.
import type { ChildProcess } from 'node:child_process';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { baseEnv } from '../examples/run-example.js';
import { cliCommand } from '../support/cli.js';
import { spawnTied } from '../support/tied-spawn.js';

export interface CliProcess {
  lines: string[];
  /** The first match of `pattern` in the output, once it shows (rejects with the output after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child: ChildProcess = spawnTied(...cliCommand(args), {
    cwd: repoRoot,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  const watchers = new Set<() => void>();
  const take = (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
    for (const watcher of watchers) watcher();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    lines,
    waitFor(pattern, ms = 120_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          for (const line of lines) {
            const found = pattern.exec(line);
            if (found) {
              done();
              resolve(found);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no line matched ${pattern} in ${ms} ms; output:\n${lines.join('\n')}`));
        }, ms);
        const gone = () => {
          done();
          reject(new Error(`the command exited before a line matched ${pattern}; output:\n${lines.join('\n')}`));
        };
        const done = () => {
          clearTimeout(timer);
          watchers.delete(look);
          child.off('exit', gone);
        };
        watchers.add(look);
        child.once('exit', gone);
        look();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
