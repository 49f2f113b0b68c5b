// `npm run sandbox`: serves on 127.0.0.1, prints tokens and accounts, logs without tokens or full
// CPFs, and stops on SIGINT, SIGTERM and SIGHUP.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';

function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/sandbox.ts'), '--port', '0', '--seed', 'script'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 30 s:\n${out}`)), 30_000);
    child.stdout.on('data', () => out.includes('Ctrl-C') && (clearTimeout(timer), resolve()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}:\n${out}`))));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (process.off('exit', kill), resolve(code))));
  return { child, ready, exited, output: () => out };
}

describe('npm run sandbox', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('prints what to use, logs safely, and stops on %s', async (signal) => {
    const sandbox = start();
    try {
      await sandbox.ready;
      const url = /Sandbox: (http:\/\/127\.0\.0\.1:\d+)/.exec(sandbox.output())![1]!;
      const token = /Bearer (sbx_[0-9a-f]+)/.exec(sandbox.output())![1]!;
      const [, account, documentNumber] = /Account=(\d+)\s+DocumentNumber=(\d{11})/.exec(sandbox.output())!;
      const response = await fetch(`${url}/v2/api/baas-onboarding/account/natural-person?Account=${account}&DocumentNumber=${documentNumber}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"email":"a@b.com"}',
      });
      expect(response.status).toBe(200);
      sandbox.child.kill(signal);
      expect(await sandbox.exited).toBe(0);
      const log = sandbox.output().slice(sandbox.output().indexOf('Ctrl-C'));
      expect(log).toContain(`DocumentNumber=*********${documentNumber!.slice(-2)} → 200`);
      expect(log).not.toContain(token);
      expect(log).not.toContain(documentNumber);
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      sandbox.child.kill('SIGKILL');
    }
  }, 60_000);
});
