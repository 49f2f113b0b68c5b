// The command line's dispatcher, in process: help, version, unknown commands and bad options, and
// that a new subcommand is nothing but its own definition in the list.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { defineCommand, type Command, type CommandContext } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';

const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

function capture(): CommandContext & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

describe('baas-pix-contract (dispatcher)', () => {
  it('--version prints the package version', async () => {
    const io = capture();
    expect(await main(['--version'], COMMANDS, io)).toBe(0);
    expect(io.stdout).toEqual([version]);
  });

  it('--help lists every command with its summary; no command at all is a usage error (2)', async () => {
    const io = capture();
    expect(await main(['--help'], COMMANDS, io)).toBe(0);
    const lines = io.stdout.join('\n').split('\n');
    for (const command of COMMANDS)
      expect(
        lines.some((l) => l.startsWith(`  ${command.name} `) && l.endsWith(command.summary)),
        command.name,
      ).toBe(true);
    expect(COMMANDS.map((c) => c.name)).toEqual(['mock', 'sandbox', 'verify', 'update-many', 'export-keys', 'docs']);
    expect(await main([], COMMANDS, capture())).toBe(2);
  });

  it('<command> --help shows its usage and options', async () => {
    const io = capture();
    expect(await main(['mock', '--help'], COMMANDS, io)).toBe(0);
    // The whole text is pinned in help.test.ts; here, that it is mock's, with its options and defaults.
    const help = io.stdout.join('\n');
    expect(help.startsWith('Usage: baas-pix-contract mock ')).toBe(true);
    for (const option of ['--port, -p N', '--host H', '127.0.0.1']) expect(help).toContain(option);
  });

  it('an unknown command or option, or a bad port, is a usage error (2) that names it', async () => {
    let io = capture();
    expect(await main(['serve'], COMMANDS, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/"serve".*mock, sandbox, verify, update-many, export-keys, docs/);
    io = capture();
    expect(await main(['mock', '--prot', '1'], COMMANDS, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--prot/);
    io = capture();
    expect(await main(['mock', '--port', '70000'], COMMANDS, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--port .*65535 .*, e\.g\. --port 8080, got "70000"/);
    io = capture();
    expect(await main(['docs'], COMMANDS, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--out DIR is required/);
  });

  it('a command is one definition: its options are parsed and typed for it, its exit code returned', async () => {
    const seen: unknown[] = [];
    const echo = defineCommand({
      name: 'echo',
      summary: 'test command',
      usage: '[options]',
      options: { times: { type: 'string', help: ['how many'] }, loud: { type: 'boolean', help: ['louder'] } },
      async run(values) {
        seen.push(values.times, values.loud);
        return 7;
      },
    });
    const io = capture();
    expect(await main(['echo', '--times', '3', '--loud'], [...COMMANDS, echo as unknown as Command], io)).toBe(7);
    expect(seen).toEqual(['3', true]);
    expect(io.stdout).toEqual([]);
    // An argument that is no flag is a usage error, never silently dropped.
    expect(await main(['echo', '--loud', 'x'], [echo as unknown as Command], io)).toBe(2);
    expect(seen).toHaveLength(2);
  });

  it('verify is declared like every command: its options, its usage errors (2), its help through the dispatcher', async () => {
    let io = capture();
    expect(await main(['verify', '--help'], COMMANDS, io)).toBe(0);
    const help = io.stdout.join('\n');
    expect(help).toMatch(/^Usage: baas-pix-contract verify /);
    for (const option of [
      '--base-url URL',
      '--allow-writes',
      '--token TOKEN',
      '--token-url URL',
      '--client-id ID',
      '0 nothing drifted',
      '1 drift found',
    ])
      expect(help).toContain(option);
    io = capture();
    expect(await main(['verify', '--pages', '2'], COMMANDS, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--base-url is required/);
    io = capture();
    expect(await main(['verify', '--base-url', 'http://127.0.0.1:9', '--pages', '0'], COMMANDS, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--pages .*positive whole number/);
  });

  // Node's "ENOENT: no such file or directory, open 'b.json'" came after the header, naming no flag.
  it('verify --allow-writes with a --body that is missing or a folder: a usage error naming --body, before anything is shown', async () => {
    for (const [body, said] of [
      ['no-such-body.json', /^baas-pix-contract verify: --body no-such-body\.json does not exist: check the path$/],
      [repoRoot, /--body .* is a folder; give the JSON file of the update body$/],
      // Sent as it was, a 400 that verify counted as OK: the file is not what --body takes.
      [join(repoRoot, 'README.md'), /--body .*README\.md is not valid JSON; give the JSON file of the update body$/],
    ] as const) {
      const io = capture();
      const argv = ['--base-url', 'http://127.0.0.1:9', '--token', 't', '--allow-writes', '--account', '1'];
      const code = await main(['verify', ...argv, '--document-number', '52998224725', '--body', body], COMMANDS, io);
      expect(code).toBe(2);
      expect(io.stdout.join('\n')).not.toMatch(/^verify http/m);
      expect(io.stderr.at(-1)).toMatch(said);
    }
  });

  it('sandbox --help lists its options; a bad count is a usage error naming the option', async () => {
    let io = capture();
    expect(await main(['sandbox', '--help'], COMMANDS, io)).toBe(0);
    for (const option of ['--port', '--host', '--seed', '--clients', '--accounts', '--keys'])
      expect(io.stdout.join('\n')).toContain(option);
    io = capture();
    expect(await main(['sandbox', '--clients', 'two'], COMMANDS, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--clients .*1,000, got "two"/);
  });

  it('a failing command exits 1 with its message, not a stack trace', async () => {
    const boom = defineCommand({
      name: 'boom',
      summary: 's',
      usage: '',
      options: {},
      run: () => Promise.reject(new Error('no Prism here')),
    });
    const io = capture();
    expect(await main(['boom'], [boom as unknown as Command], io)).toBe(1);
    const thrown = 'no Prism here';
    expect(io.stderr).toEqual([`baas-pix-contract boom: ${thrown}`]);
  });
});
