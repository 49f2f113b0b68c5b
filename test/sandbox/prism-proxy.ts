// Prism in proxy mode in front of a sandbox: Prism, the independent reader of the spec, checks
// every request and response live (`--errors`: a response that breaks the contract becomes a 500).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundledSpecPath, freePort } from '../../src/testing/mock.js';

export async function startPrismProxy(upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  const entry = join(
    dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')),
    'dist',
    'index.js',
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      entry,
      'proxy',
      bundledSpecPath,
      upstream,
      '--errors',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--no-multiprocess',
    ],
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
      const timer = setTimeout(() => reject(new Error(`Prism proxy did not start within 30 s:\n${output}`)), 30_000);
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
