// Every command and code block of the README and the guides, run as written from a fresh project
// (test/guides/guide-blocks.ts states the rule: which blocks run, how each is run, how one is marked
// not-run). The packed tarball (test/package/pack.ts), then, for each guide that has runnable blocks,
// two fresh projects in a temporary folder outside the repository, one made by `npm init -y` (CommonJS,
// npm 11's default) and one an ES module (`npm pkg set type=module` after it); in each, the guide's
// blocks in order:
//
// - install lines as written, from the registry through the shared npm cache (`--prefer-offline
//   --no-audit --no-fund` added, which change what is fetched again, not what is installed); a
//   `/path/to/baas-pix-contract-<version>.tgz` is the tarball, and its version must be the package's;
// - `npx baas-pix-contract sandbox …` started on a free port in place of the one written (later
//   commands' URLs follow), stopped when the guide is done; `sbx_…`, `sbx_client_…` and `sbx_secret_…`
//   are what it printed for client 1;
// - every other command run to its end: exit 0 expected;
// - each file block written under the name its first line gives (an example that imports its
//   `./support/` helpers is run from the copy the package ships, `node_modules/baas-pix-contract/examples/`,
//   as the guide says); files no command runs are run by kind: `*.test.ts` all at once by `npx vitest
//   run`, others by `npx tsx` (`node` for .mjs/.js), with the sandbox's URL, token and first customer
//   in BAAS_* variables when a sandbox runs. A file another block names (a config's setup file, an
//   imported module) is not run on its own; a file with top-level `await` or `import.meta` is not run
//   in a project that is still CommonJS, where it cannot run (the guides say to make it a module).
//
// The Portuguese guides' code is the English guides' code (test/examples/doc-blocks.test.ts), so
// running the English blocks runs theirs.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { descendants, killTree, startUntil } from '../cli/processes.js';
import { sharedPack, type PackedTarball } from '../package/pack.js';
import { type Block, type Command, GUIDES, blocksOf, whyNotRunnable } from './guide-blocks.js';

const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
let packed: PackedTarball;
let projects: string;
const started: number[] = [];

beforeAll(async () => {
  [packed, projects] = await Promise.all([sharedPack(), mkdtemp(join(tmpdir(), 'baas-guides-'))]);
}, 600_000);
afterAll(async () => {
  killTree(started);
  if (projects) await rm(projects, { recursive: true, force: true });
});

// The run's own settings must not leak into a reader's shell: VITEST_*, loaders, colours, BAAS_*.
const cleanEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(VITEST|TEST$|FORCE_COLOR|NODE_OPTIONS|JEST|BAAS_|npm_)/.test(name),
    ),
  ),
  NO_COLOR: '1',
  // npx runs what the guide installed, never a package it fetches on its own: a missing install line fails.
  npm_config_yes: 'false',
});

interface Ran {
  code: number;
  output: string;
}

function sh(argv: string[], cwd: string, env: Record<string, string> = {}, timeout = 240_000): Promise<Ran> {
  const [program, ...args] = argv;
  return promisify(execFile)(program!, args, { cwd, env: { ...cleanEnv(), ...env }, timeout }).then(
    ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
    (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}\n${error.message}`,
    }),
  );
}

async function expectOk(argv: string[], cwd: string, what: string, env: Record<string, string> = {}): Promise<string> {
  const ran = await sh(argv, cwd, env);
  expect(ran.code, `${what}: \`${argv.join(' ')}\` exited ${ran.code}\n${ran.output}`).toBe(0);
  return ran.output;
}

interface Sandbox {
  url: string;
  /** The port the guide wrote, which later commands name. */
  written: string;
  token: string;
  clientId: string;
  clientSecret: string;
  account: string;
  documentNumber: string;
  tree: number[];
}

/** Where a runnable block came from, for the failure messages. */
const where = (block: Block) => `${block.document}:${block.line}`;

class GuideRun {
  sandbox: Sandbox | undefined;
  /** Files written or shipped, with the block that shows them; relative to the project. */
  files: { path: string; block: Block }[] = [];
  ranFiles = new Set<string>();

  constructor(
    readonly dir: string,
    readonly blocks: Block[],
  ) {}

  /** A value as the reader would type it: the sandbox's printed values for its placeholders, its port. */
  fill(value: string): string {
    const sandbox = this.sandbox;
    if (!sandbox) return value;
    return value
      .replaceAll('sbx_client_…', sandbox.clientId)
      .replaceAll('sbx_secret_…', sandbox.clientSecret)
      .replaceAll('sbx_…', sandbox.token)
      .replaceAll(`127.0.0.1:${sandbox.written}`, new URL(sandbox.url).host);
  }

  async startSandbox(command: Command, block: Block) {
    await this.stopSandbox();
    const argv = [...command.argv];
    const at = argv.indexOf('--port');
    const written = at >= 0 ? argv[at + 1]! : '4020';
    // Port 0: the system picks a free port as the sandbox binds it. A port looked up free first could be
    // taken by another process before the bind (CI saw "port … is in use" with the matrix's files side by side).
    if (at >= 0) argv[at + 1] = '0';
    else argv.push('--port', '0');
    const [program, ...args] = argv;
    const run = startUntil(program!, args, /listening on (http:\/\/\S+)/, { cwd: this.dir, timeoutMs: 120_000 });
    started.push(run.child.pid!);
    await run.ready.catch((error: Error) => {
      throw new Error(`${where(block)}: \`${command.line}\` did not start:\n${error.message}`);
    });
    const output = run.output();
    const grab = (pattern: RegExp, what: string) => {
      const found = pattern.exec(output)?.[1];
      if (!found) throw new Error(`${where(block)}: the sandbox printed no ${what}:\n${output}`);
      return found;
    };
    const url = grab(/listening on (http:\/\/\S+)/, 'URL');
    const { port } = new URL(url);
    const tree = [run.child.pid!, ...descendants(run.child.pid!)];
    started.push(...tree);
    // What the guide shows it prints, up to its "listening" line (the request log after it needs requests):
    // each line in order, `…` standing for anything, the written port for the real one.
    const shown = command.shows.slice(0, command.shows.findIndex((line) => /listening on/.test(line)) + 1);
    const printed = stripVTControlCharacters(output).split('\n');
    let from = 0;
    for (const line of shown) {
      const escaped = line.replaceAll(`:${written}`, `:${port}`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern = new RegExp(`^${escaped.replaceAll('…', '.*?')}$`);
      const at = printed.findIndex((candidate, index) => index >= from && pattern.test(candidate.trimEnd()));
      expect(
        at,
        `${where(block)}: the sandbox does not print "${line}" (in this order); it printed:\n${output}`,
      ).toBeGreaterThanOrEqual(0);
      from = at + 1;
    }
    this.sandbox = {
      url,
      written,
      token: grab(/Authorization: Bearer (sbx_\S+?)'?\s/, 'token'),
      clientId: grab(/client_id=(\S+)/, 'client_id'),
      clientSecret: grab(/client_secret=(\S+)/, 'client_secret'),
      account: grab(/Account=(\S+)/, 'account'),
      documentNumber: grab(/DocumentNumber=(\S+)/, 'document number'),
      tree,
    };
  }

  async stopSandbox() {
    if (this.sandbox) killTree(this.sandbox.tree);
    this.sandbox = undefined;
  }

  async command(command: Command, block: Block) {
    const what = `${where(block)} (${basename(this.dir)})`;
    if (command.kind === 'sandbox') return this.startSandbox(command, block);
    let argv = command.argv.map((word) => this.fill(word));
    if (command.kind === 'install') {
      argv = argv.map((word) => {
        const tarball = /^\/path\/to\/(baas-pix-contract-(.+)\.tgz)$/.exec(word);
        if (!tarball) return word;
        expect(tarball[2], `${what}: the guide installs version ${tarball[2]}, the package is ${version}`).toBe(
          version,
        );
        return packed.tarball;
      });
      expect(
        argv.filter((word) => /^baas-pix-contract(@|$)/.test(word)),
        `${what}: \`${command.line}\` installs the package from the registry, where it is not published`,
      ).toEqual([]);
      argv.push('--prefer-offline', '--no-audit', '--no-fund');
    }
    const env = Object.fromEntries(Object.entries(command.env).map(([name, value]) => [name, this.fill(value)]));
    for (const word of argv) this.ranFiles.add(word);
    await expectOk(argv, this.dir, what, env);
  }

  /** Where a file block's file is: written into the project, or the copy the package ships. */
  static pathOf(block: Block): string {
    const shipped = block.example && /from '\.\/support\//.test(block.code);
    return shipped ? join('node_modules/baas-pix-contract', block.example!) : (block.file ?? basename(block.example!));
  }

  /** Every file a reader copies from the guide, written before its commands run (a command may come first). */
  async writeFiles() {
    for (const block of this.blocks) {
      if (block.lang === 'sh') continue;
      const path = GuideRun.pathOf(block);
      this.files.push({ path, block });
      if (path.startsWith('node_modules/')) continue;
      await mkdir(dirname(join(this.dir, path)), { recursive: true });
      await writeFile(join(this.dir, path), block.code);
    }
  }

  async file(block: Block) {
    const path = GuideRun.pathOf(block);
    expect(existsSync(join(this.dir, path)), `${where(block)}: the package does not ship ${block.example}`).toBe(true);
    await this.runFile(path, block);
  }

  /** The BAAS_* variables a file of the guides reads, from the running sandbox. */
  serviceEnv(): Record<string, string> {
    const sandbox = this.sandbox;
    if (!sandbox) return {};
    return {
      BAAS_BASE_URL: sandbox.url,
      BAAS_TOKEN: sandbox.token,
      BAAS_ACCOUNT: sandbox.account,
      BAAS_DOCUMENT_NUMBER: sandbox.documentNumber,
    };
  }

  /** Is a file a program to run on its own: not a test (run together at the end), not named by another block? */
  private standalone(path: string): boolean {
    const stem = basename(path).replace(/\.[^.]+$/, '');
    const named = this.files.some(({ path: other, block }) => other !== path && block.code.includes(`./${stem}.`));
    const byCommand = this.blocks.some((block) => block.commands.some((command) => command.argv.includes(path)));
    return !named && !byCommand && !/\.test\.ts$/.test(path);
  }

  /** Runs a file block that no command runs, where the guide shows it. */
  async runFile(path: string, block: Block) {
    if (!this.standalone(path)) return;
    const module = JSON.parse(await readFile(join(this.dir, 'package.json'), 'utf8')).type === 'module';
    const inPackage = path.startsWith('node_modules/');
    if (!module && !inPackage && /^(await |for await|const .*= await |[^\n]*import\.meta)/m.test(block.code)) return;
    if (!this.sandbox && /env\('BAAS_BASE_URL'\)/.test(block.code))
      await this.startSandbox(
        {
          line: '(the sandbox the file reads)',
          kind: 'sandbox',
          env: {},
          argv: ['npx', 'baas-pix-contract', 'sandbox'],
          shows: [],
        },
        block,
      );
    const runner = /\.(m|c)?js$/.test(path) ? ['node', path] : ['npx', 'tsx', path];
    await expectOk(runner, this.dir, `${where(block)} (${basename(this.dir)})`, this.serviceEnv());
  }

  async runTests() {
    const tests = this.files
      .map(({ path }) => path)
      .filter((path) => /\.test\.ts$/.test(path) && !this.ranFiles.has(path));
    if (tests.length === 0) return;
    const output = await expectOk(['npx', 'vitest', 'run', ...tests], this.dir, `${this.blocks[0]!.document}'s tests`);
    expect(output).toMatch(new RegExp(`Test Files\\s+${tests.length} passed`));
  }
}

const runnable = (document: string) =>
  blocksOf(document).filter((block) => ['sh', 'ts', 'js'].includes(block.lang) && !block.notRun);
const guides = GUIDES.filter((document) => runnable(document).length > 0);

describe.each(guides)('%s, as written', (document) => {
  it.each(['commonjs', 'module'] as const)(
    'runs from a fresh %s project',
    async (type) => {
      const blocks = runnable(document);
      for (const block of blocks) expect(whyNotRunnable(block), where(block)).toBeUndefined();
      const dir = join(projects, `${document.replace(/\W+/g, '-')}-${type}`);
      await mkdir(dir);
      await expectOk(['npm', 'init', '-y'], dir, 'npm init -y');
      if (type === 'module') await expectOk(['npm', 'pkg', 'set', 'type=module'], dir, 'npm pkg set type=module');
      const guide = new GuideRun(dir, blocks);
      try {
        await guide.writeFiles();
        // A guide that does not install the package itself starts where the README leaves a reader.
        if (!blocks.some((block) => block.commands.some((command) => command.line.includes('baas-pix-contract-'))))
          for (const block of runnable('README.md').filter((b) => b.commands.some((c) => c.kind === 'install')))
            for (const command of block.commands) await guide.command(command, block);
        for (const block of blocks) {
          if (block.lang === 'sh') for (const command of block.commands) await guide.command(command, block);
          else await guide.file(block);
        }
        await guide.runTests();
      } finally {
        await guide.stopSandbox();
      }
    },
    900_000,
  );
});
