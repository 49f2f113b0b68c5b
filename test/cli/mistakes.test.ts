// The mistakes a newcomer makes, as the command line prints them: each is answered with what to do,
// and the answer is the last line on the screen. In process through main(), standard output and error
// in one list in the order they were written (what a terminal shows); that the bin is main() is
// test/support/cli.test.ts's. The words are pinned in help.test.ts; here, what each names, the exit
// status, and that it comes last.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';

interface Ran {
  code: number;
  /** Every line written, stdout and stderr interleaved as they came. */
  lines: string[];
}

/** `baas-pix-contract ...args` from the sources, with only the environment given (no BAAS_* of the runner). */
async function bin(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const lines: string[] = [];
  const write = (line: string) => lines.push(...line.split('\n'));
  const code = await main(args, COMMANDS, {
    out: write,
    err: write,
    env: { PATH: process.env.PATH ?? '', ...env },
    progress: { isTTY: false, write: (text) => write(text.trimEnd()) },
  });
  return { code, lines };
}

let blocker: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
  blocker = undefined;
});

describe('mistakes, answered last', () => {
  it('sandbox --prot 1: "did you mean --port", exit 2, the error the last line, after at most two short lines', async () => {
    const { code, lines } = await bin(['sandbox', '--prot', '1']);
    expect(code).toBe(2);
    expect(lines.at(-1)).toMatch(/--prot.*did you mean --port\?$/);
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines.slice(0, -1).join('\n')).toContain('--help');
  });

  it('verify with no credentials: the missing variable and flags named, exit 2, the last line, nothing else printed', async () => {
    const { code, lines } = await bin(['verify', '--base-url', 'http://127.0.0.1:9']);
    expect(code).toBe(2);
    for (const named of ['BAAS_TOKEN', '--token', '--token-url', '--client-id', 'BAAS_CLIENT_SECRET'])
      expect(lines.at(-1)).toContain(named);
    expect(lines.length).toBeLessThanOrEqual(3);
  });

  it('no --base-url: says what it is and shows both forms, exit 2, the last line', async () => {
    for (const command of [['verify'], ['update-many', '--input', 'x.jsonl'], ['export-keys', '--out', 'k.jsonl']]) {
      const { code, lines } = await bin(command, { BAAS_TOKEN: 't' });
      expect(code, command[0]).toBe(2);
      expect(lines.at(-1)).toBe(
        `baas-pix-contract ${command[0]}: --base-url is required: the service's root, e.g. --base-url https://api.provider.example (a sandbox on this machine: --base-url http://127.0.0.1:4020)`,
      );
    }
  });

  it('a port in use: says so and suggests another port or --port 0, exit 1, the last line', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const { code, lines } = await bin(['sandbox', '--port', String(port), '--accounts', '1']);
    expect(code).toBe(1);
    expect(lines.at(-1)).toContain(`port ${port} is in use`);
    expect(lines.at(-1)).toContain('--port 0');
    expect(lines.at(-1)).not.toMatch(/EADDRINUSE|at .*\.ts:\d+/);
  });
});
