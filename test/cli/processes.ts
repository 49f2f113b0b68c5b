// Process-tree helpers for the command-line tests (Linux `ps`).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

/** Every live descendant of `pid`, from `ps`. */
export function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, ppid] of rows) {
      if (ppid !== parent) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when 127.0.0.1:port can be bound, i.e. nothing listens there any more. */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function eventually(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a command and resolves once its output matches `ready`; kills it if that never comes. */
export function startUntil(
  command: string,
  args: string[],
  ready: RegExp,
  options: { cwd: string; timeoutMs?: number },
) {
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const readyPromise = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args.join(' ')} did not print ${ready} in time:\n${output}`)),
      options.timeoutMs ?? 60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[0]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before it was ready:\n${output}`));
    });
  });
  return { child: child as ChildProcess, ready: readyPromise, output: () => output };
}

/** Kills every process of a tree that is still alive: the safety net after each test. */
export function killTree(pids: number[]): void {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/** Every process of a stopped server's tree is gone, and its port is free again. */
export async function expectNothingLeft(tree: number[], port: number): Promise<void> {
  const gone = await eventually(() => tree.every((p) => !alive(p)), 15_000);
  expect(tree.filter(alive), 'processes still alive').toEqual([]);
  expect(gone).toBe(true);
  expect(await eventually(() => portIsFree(port), 5_000), `port ${port} still taken`).toBe(true);
}

/**
 * `npm run sandbox -- --port <a free one> …args`, as a user starts it; resolves once it listens.
 * `started` is given every process of its tree as soon as each is known, for afterEach to kill.
 */
export async function startSandboxCommand(started: number[], ...args: string[]) {
  // Port 0: the system picks a free port as the sandbox binds it, so no other process can take it between
  // a lookup and the bind; the port is read back from the banner.
  // The banner ends with the line that says it listens: once it is printed, every token and account is there.
  const run = startUntil(
    'npm',
    ['run', '--silent', 'sandbox', '--', '--port', '0', ...args],
    /Sandbox listening on .*\n/,
    { cwd: repoRoot },
  );
  const pid = run.child.pid!;
  run.ready.catch(() => undefined);
  started.push(pid);
  await run.ready;
  const tree = [pid, ...descendants(pid)];
  started.push(...tree.slice(1));
  const url = /Sandbox listening on (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(run.output())?.[1];
  if (!url) throw new Error(`the sandbox printed no URL:\n${run.output()}`);
  return { ...run, port: Number(new URL(url).port), pid, tree, url };
}
