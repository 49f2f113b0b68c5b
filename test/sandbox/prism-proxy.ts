// Prism in proxy mode in front of a sandbox: Prism, the independent reader of the spec, checks
// every request and response live (`--errors`: a response that breaks the contract becomes a 500).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundledSpecPath } from '../../src/testing/mock.js';

/** Below the run's hook limit (vitest.config.ts), as startMock's readyTimeoutMs in the tests. */
const READY_MS = 240_000;

export async function startPrismProxy(upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  const entry = join(
    dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')),
    'dist',
    'index.js',
  );
  // --port 0: the system gives Prism a free port as it binds, and its "Prism is listening on URL" line says
  // which (read below). A port looked up free first could be taken by another test before Prism bound it.
  const child = spawn(
    process.execPath,
    [entry, 'proxy', bundledSpecPath, upstream, '--errors', '--host', '127.0.0.1', '--port', '0', '--no-multiprocess'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const stop = async () => {
    process.off('exit', kill);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      // Prism's start is seconds of CPU: on a loaded machine minutes, never a failure (30 s failed at load 14-18).
      const timer = setTimeout(
        () => reject(new Error(`Prism proxy did not start within ${READY_MS / 1000} s:\n${output}`)),
        READY_MS,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /Prism is listening on (http:\/\/\S+)/.exec(output);
        if (ready?.[1]) {
          clearTimeout(timer);
          resolve(ready[1].replace(/\/$/, ''));
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`Prism proxy exited (${code}):\n${output}`)));
    });
    child.stdout.resume();
    child.stderr.resume();
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
