// Runs a runtime's process for a test and always ends it: a program run to its end (its output), or
// workerd serving until stopped (its port, from the control socket it writes to, not from a timer).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** The environment a runtime gets: this run's own variables left out, no colours, no update check, no telemetry. */
export const runtimeEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|FORCE_COLOR|NODE_OPTIONS|JEST)/.test(name)),
  ),
  NO_COLOR: '1',
  DENO_NO_UPDATE_CHECK: '1',
  DO_NOT_TRACK: '1',
  ...extra,
});

/** Ends a child (SIGTERM, then SIGKILL if it lingers after its exit was asked for) and waits for its exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

/** Runs `binary args` in `cwd` to its end; resolves with stdout, rejects with everything it printed. */
export async function runProgram(
  binary: string,
  args: string[],
  cwd: string,
  what: string,
  env: Record<string, string> = {},
): Promise<string> {
  const child = spawn(binary, args, { cwd, env: runtimeEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  try {
    const [code, signal] = (await Promise.race([
      once(child, 'exit'),
      once(child, 'error').then(([error]) => {
        throw error;
      }),
    ])) as [number | null, NodeJS.Signals | null];
    if (code !== 0) throw new Error(`${what} exited with ${code ?? signal}:\n${stdout}${stderr}`);
    return stdout;
  } finally {
    await stop(child);
  }
}

export interface RunningWorkerd {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Serves `config` (a workerd .capnp file) with workerd; resolves when it reports its socket's port on
 * the control channel (fd 3), rejects with its output if it exits first.
 */
export async function serveWorkerd(binary: string, config: string, cwd: string): Promise<RunningWorkerd> {
  const child = spawn(binary, ['serve', config, '--control-fd=3'], {
    cwd,
    env: runtimeEnv(),
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const control = child.stdio[3] as NodeJS.ReadableStream;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let lines = '';
      control.on('data', (chunk) => {
        lines += chunk;
        for (const line of lines.split('\n')) {
          const event = /^\{.*\}$/.test(line.trim()) ? (JSON.parse(line) as { event?: string; port?: number }) : {};
          if (event.event === 'listen' && event.port) resolve(event.port);
        }
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`workerd exited with ${code ?? signal}:\n${output}`)));
    });
    return { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}
