// What the command line prints for help, word for word (the one place that pins the help texts and the
// usage errors' format; other tests assert what they name), and the dispatcher's rules: `help`, `-h`,
// `-v`, the usage hint after a usage error, a command that fails with something not an Error, and
// the bin itself (process.argv in, process.exitCode out, lines on stdout and stderr).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { UsageError, defineCommand, type Command } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { usageLine } from '../../src/cli/help.js';
import { commandHelp, main, mainHelp } from '../../src/cli/main.js';
import { listenProblem } from '../../src/cli/server.js';
import { plural } from '../../src/words.js';
import { BATCH_DEFAULTS } from '../../src/cli/batch/options.js';
import { CONCURRENCY_FLAGS, CONNECTION_FLAGS } from '../../src/cli/flags.js';
import { DEFAULTS, defaultMaxRequests, MAX_LIMIT } from '../../src/verify/options.js';
import { capture } from './in-process.js';

const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

// The help texts themselves are snapshot files (test/cli/help/<command>.txt, the version written as
// <version>), written from the command declarations by `npx vitest run test/cli/help.test.ts -u` and
// reviewed in the diff: no hand-kept copy. The declarations' own rules (every flag shown with its
// help, the shared flags alike, one layout) are the tests after them.
const snapshotOf = (name: string) => join(import.meta.dirname, 'help', `${name}.txt`);
const asSnapshot = (text: string) => `${text.replaceAll(version, '<version>')}\n`;
const commandNamed = (name: string) => COMMANDS.find((c) => c.name === name)!;

describe('help, word for word', () => {
  it.each([['--help'], ['-h'], ['help']])('`%s` prints the command list and exits 0', async (flag) => {
    const io = capture();
    expect(await main([flag], COMMANDS, io)).toBe(0);
    expect(io.stdout).toEqual([mainHelp()]);
    expect(io.stderr).toEqual([]);
  });

  it('the command list, word for word (test/cli/help/main.txt)', async () => {
    await expect(asSnapshot(mainHelp())).toMatchFileSnapshot(snapshotOf('main'));
  });

  it('no command at all prints the same list on stdout and exits 2', async () => {
    const io = capture();
    expect(await main([], COMMANDS, io)).toBe(2);
    expect(io.stdout).toEqual([mainHelp()]);
  });

  it('the command list is padded to the longest name', () => {
    const named = (name: string) => ({ name, summary: `about ${name}` }) as Command;
    expect(
      mainHelp([named('a'), named('long-one')])
        .split('\n')
        .slice(5, 7),
    ).toEqual(['  a         about a', '  long-one  about long-one']);
  });

  it.each(COMMANDS.map((c) => c.name))('`%s --help` and `-h` print its usage, summary and options', async (name) => {
    for (const flag of ['--help', '-h']) {
      const io = capture();
      expect(await main([name, flag], COMMANDS, io)).toBe(0);
      expect(io.stdout).toEqual([commandHelp(commandNamed(name))]);
    }
    await expect(asSnapshot(commandHelp(commandNamed(name)))).toMatchFileSnapshot(snapshotOf(name));
  });

  it('a help snapshot for every command there is, and none for a command there is not', async () => {
    const files = (await readdir(join(import.meta.dirname, 'help'))).sort();
    expect(files).toEqual(['main', ...COMMANDS.map((c) => c.name)].map((name) => `${name}.txt`).sort());
  });

  it('`--help` beside a mistake still prints the help, exit 0', async () => {
    const io = capture();
    expect(await main(['sandbox', '--prot', '1', '--help'], COMMANDS, io)).toBe(0);
    expect(io.stdout).toEqual([commandHelp(commandNamed('sandbox'))]);
    expect(io.stderr).toEqual([]);
  });

  it.each([['--version'], ['-v']])('`%s` prints the version alone', async (flag) => {
    const io = capture();
    expect(await main([flag], COMMANDS, io)).toBe(0);
    expect(io.stdout).toEqual([version]);
  });
});

describe('every --help describes every flag its command takes, from the declarations', () => {
  const helpOf = async (name: string) => {
    const io = capture();
    await main([name, '--help'], COMMANDS, io);
    return io.stdout.join('\n');
  };

  it.each(COMMANDS.map((c) => c.name))('%s: each flag on a line of its own, with its help', async (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    const lines = (await helpOf(name)).split('\n');
    for (const [flag, declared] of Object.entries(command.options)) {
      expect(declared.help.length, flag).toBeGreaterThan(0);
      const at = lines.findIndex((line) => line.startsWith(`  --${flag}`) && /^ {2}--[\w-]+(,| |$)/.test(line));
      expect(at, flag).toBeGreaterThan(0);
      expect(lines.slice(at, at + 2).join('\n'), flag).toContain(declared.help[0]);
    }
  });

  it.each([
    ['--pages N', DEFAULTS.pages],
    ['--limit N', DEFAULTS.limit],
    ['--max-requests N', defaultMaxRequests(DEFAULTS.pages)],
    ['--time-budget-ms MS', DEFAULTS.timeBudgetMs],
    ['--timeout-ms MS', DEFAULTS.timeoutMs],
    ['--max-response-bytes N', DEFAULTS.maxResponseBytes],
  ])('verify: %s gives the default the checks use (%i)', async (synopsis, value) => {
    const lines = (await helpOf('verify')).split('\n');
    const at = lines.findIndex((line) => line.trimStart().startsWith(synopsis));
    // The flag's own line and its continuation lines (indented deeper, no flag of their own).
    const after = lines.slice(at + 1);
    const continued = after.findIndex((line) => !/^ {30,}\S/.test(line));
    const own = [lines[at]!, ...after.slice(0, continued)].join(' ');
    expect(own).toMatch(new RegExp(`\\(default .*\\b${value}\\b`));
  });

  it('verify: target, credentials, walk, budgets, writes, output, safety, in that order', async () => {
    const titles = (await helpOf('verify'))
      .split('\n')
      .filter((line) => /^[A-Z][a-z]+( \(.*\))?:$/.test(line))
      .map((line) => line.split(/[ :]/)[0]);
    expect(titles).toEqual(['Target', 'Credentials', 'Walk', 'Budgets', 'Writes', 'Output', 'Safety']);
  });

  it('the shared flags are one declaration: verify, update-many and export-keys show them alike', async () => {
    const block = (help: string, title: string) => {
      const lines = help.split('\n');
      const at = lines.findIndex((line) => line.startsWith(title));
      return lines.slice(at, lines.indexOf('', at)).join('\n');
    };
    const helps = await Promise.all(['verify', 'update-many', 'export-keys'].map(helpOf));
    for (const title of ['Target:', 'Credentials', 'Safety:']) {
      expect(block(helps[0]!, title).length, title).toBeGreaterThan(20);
      expect(block(helps[1]!, title), title).toBe(block(helps[0]!, title));
      expect(block(helps[2]!, title), title).toBe(block(helps[0]!, title));
    }
    const update = COMMANDS.find((c) => c.name === 'update-many')!;
    const exportKeys = COMMANDS.find((c) => c.name === 'export-keys')!;
    expect(update.options.concurrency).toBe(CONCURRENCY_FLAGS.concurrency);
    expect(update.options.rate).toBe(exportKeys.options.rate);
    expect(update.options.token).toBe(CONNECTION_FLAGS.token);
    expect(COMMANDS.find((c) => c.name === 'verify')!.options.report).toBe(update.options.report);
  });

  it('update-many and export-keys give their own defaults', async () => {
    expect(await helpOf('update-many')).toContain(`(default ${BATCH_DEFAULTS.concurrency})`);
    expect(await helpOf('export-keys')).toContain(`(default ${MAX_LIMIT})`);
  });
});

describe('the dispatcher', () => {
  const boom = (reason: unknown) =>
    defineCommand({
      name: 'boom',
      summary: 's',
      usage: '',
      options: {},
      run: () => Promise.reject(reason),
    }) as unknown as Command;

  const usageOf = (name: string) => [
    usageLine(COMMANDS.find((c) => c.name === name)!),
    `See \`baas-pix-contract ${name} --help\` for every option.`,
  ];

  it("a usage error: the short usage line, the pointer at the command's help, then the message last, exit 2", async () => {
    const io = capture();
    expect(await main(['mock', '--port', 'x'], COMMANDS, io)).toBe(2);
    expect(io.stderr).toEqual([
      'Usage: baas-pix-contract mock [options]',
      'See `baas-pix-contract mock --help` for every option.',
      'baas-pix-contract mock: --port must be a whole number from 0 to 65535 (default 4010; 0 picks a free one), e.g. --port 8080, got "x"',
    ]);
    expect(io.stdout).toEqual([]);
  });

  it.each([
    [['sandbox', '--prot', '1'], 'unknown option --prot; did you mean --port?'],
    [['sandbox', '--acounts', '5'], 'unknown option --acounts; did you mean --accounts?'],
    [['sandbox', '--list=yes'], '--list takes no value: give --list alone, or leave it out'],
    [['sandbox', '--port'], '--port needs a value: --port N'],
    [['sandbox', '-p'], '-p needs a value: --port N'],
    [
      ['sandbox', '--port', '--host', '0.0.0.0'],
      '--port needs a value: --port N (a value that starts with "-" goes after "=": --port=-…)',
    ],
    [['sandbox', '4020'], 'takes options only (--name VALUE), but got 1 other argument'],
    [['sandbox', '-x'], 'unknown option -x'],
    [['docs', '--zzzzzz', 'x'], 'unknown option --zzzzzz'],
    [['verify', '--page-size', '5'], '--page-size is now --limit (renamed in 1.0)'],
    [['verify', '--timeout', '5'], '--timeout is now --timeout-ms (renamed in 1.0)'],
    [['verify', '--time-budget', '5'], '--time-budget is now --time-budget-ms (renamed in 1.0)'],
    [['export-keys', '--page-size=5'], '--page-size is now --limit (renamed in 1.0)'],
    [['sandbox', '--token-ttl', '5'], '--token-ttl is now --token-ttl-seconds (renamed in 1.0)'],
    [['update-many', '--page-size', '5'], 'unknown option --page-size'],
    [['verify', '--tokn-url', 'https://x'], 'unknown option --tokn-url; did you mean --token-url?'],
    // Numbers are written as the help writes them (src/cli/words.ts): 100,000, not 100000.
    [['sandbox', '--accounts', '0'], '--accounts must be a whole number from 1 to 100,000, got "0"'],
    // The rule, the default and an example of the right form; for --limit, what was wrong with the value.
    [
      ['sandbox', '--port', '70000'],
      '--port must be a whole number from 0 to 65535 (default 4020; 0 picks a free one), e.g. --port 8080, got "70000"',
    ],
    [
      ['docs', '--serve', '--port', 'x'],
      '--port must be a whole number from 0 to 65535 (0, the default, picks a free one), e.g. --port 8080, got "x"',
    ],
    [
      ['verify', '--base-url', 'https://x', '--token', 't', '--limit', '0'],
      "--limit must be a whole number from 1 to 200, the keys asked for each page (the contract's bound), e.g. --limit 50: the one given asks for no keys",
    ],
    [
      ['export-keys', '--out', 'x.jsonl', '--token', 't', '--limit', '500'],
      "--limit must be a whole number from 1 to 200, the keys asked for each page (the contract's bound), e.g. --limit 50: the one given is more than 200",
    ],
    [
      ['export-keys', '--out', 'x.jsonl', '--token', 't', '--limit', 'ten'],
      "--limit must be a whole number from 1 to 200, the keys asked for each page (the contract's bound), e.g. --limit 50: the one given is not a whole number",
    ],
    [
      ['update-many', '--input', 'x', '--dry-run', '--rate', '1000000'],
      '--rate must be a number of requests per second from 0.001 to 100,000, got "1000000"',
    ],
  ])('%j: "%s", printed last, exit 2', async (argv, message) => {
    const io = capture();
    expect(await main(argv, COMMANDS, io)).toBe(2);
    expect(io.stderr).toEqual([...usageOf(argv[0]!), `baas-pix-contract ${argv[0]}: ${message}`]);
  });

  it('the missing credentials, named: the variable and the flags, printed last', async () => {
    const io = { ...capture(), env: {} };
    expect(await main(['verify', '--base-url', 'http://127.0.0.1:9'], COMMANDS, io)).toBe(2);
    expect(io.stderr).toEqual([
      ...usageOf('verify'),
      'baas-pix-contract verify: no credentials: BAAS_TOKEN is not set and no --token was given; give a token (--token TOKEN, or BAAS_TOKEN), or client credentials (--token-url URL --client-id ID, with the secret in BAAS_CLIENT_SECRET)',
    ]);
    const partial = { ...capture(), env: {} };
    expect(
      await main(
        ['export-keys', '--out', 'x.jsonl', '--base-url', 'http://127.0.0.1:9', '--client-id', 'c'],
        COMMANDS,
        partial,
      ),
    ).toBe(2);
    expect(partial.stderr.at(-1)).toBe(
      'baas-pix-contract export-keys: client credentials need --token-url, --client-id and the client secret; missing: --token-url URL, the secret (BAAS_CLIENT_SECRET, preferred, or --client-secret)',
    );
  });

  it("the batch commands' file mistakes, word for word, printed last, exit 2", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'help-files-'));
    try {
      const file = async (name: string, text: string) => {
        await writeFile(join(dir, name), text);
        return join(dir, name);
      };
      const empty = await file('empty.jsonl', '');
      const blank = await file('blank.jsonl', '\n\n');
      const header = await file('header.csv', 'Account,DocumentNumber,email\n');
      const txt = await file('people.txt', 'Account,DocumentNumber,email\n');
      const notJournal = await file('notes.txt', 'shopping list\n');
      const line = await file('one.jsonl', '{}\n');
      const target = ['--base-url', 'http://127.0.0.1:1', '--token', 'tok_0123456789'];
      for (const [argv, message] of [
        [
          ['update-many', '--input', dir],
          `--input ${dir} is a folder; give the file that holds the updates (JSONL, CSV with a .csv name, or a .xlsx workbook)`,
        ],
        [
          ['update-many', '--input', empty],
          `--input ${empty} is empty: there is nothing to update; give the file that holds the updates`,
        ],
        [
          ['update-many', '--input', blank],
          `--input ${blank} has only blank lines: there is nothing to update; give one {"account","documentNumber","body"} a line`,
        ],
        [
          ['update-many', '--input', header],
          `--input ${header} has a header row and no records: there is nothing to update; add a row per customer below the header`,
        ],
        [
          ['update-many', '--input', txt],
          `--input ${txt}: line 1 is a CSV header, but a name not ending in .csv is read as JSONL; give the file a .csv name`,
        ],
        [['export-keys', '--out', dir], `--out ${dir} is a folder; give the name of a file to write`],
        [
          ['update-many', '--input', line, '--journal', notJournal],
          `--journal ${notJournal}: line 1 is not JSON (not an update-many journal, or edited); give the journal this command wrote, or a new file`,
        ],
      ] as const) {
        const io = capture();
        expect(await main([...argv, ...target], COMMANDS, io)).toBe(2);
        expect(io.stderr).toEqual([...usageOf(argv[0]), `baas-pix-contract ${argv[0]}: ${message}`]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a port in use: what to do, as the command line prints it', () => {
    expect(listenProblem({ code: 'EADDRINUSE' }, { host: '127.0.0.1', port: 4020 }, 4021)?.message).toBe(
      'port 4020 is in use on 127.0.0.1 (another sandbox or mock?): stop that one, pick another port with --port 4021 (free just now), or let the system pick a free one with --port 0',
    );
  });

  it('an unknown command names the ones there are, exit 2', async () => {
    const io = capture();
    expect(await main(['serve'], COMMANDS, io)).toBe(2);
    expect(io.stderr).toEqual([
      'baas-pix-contract: unknown command "serve". Commands: mock, sandbox, verify, update-many, export-keys, docs. See --help.',
    ]);
    const typo = capture();
    expect(await main(['sandbx'], COMMANDS, typo)).toBe(2);
    expect(typo.stderr).toEqual([
      'baas-pix-contract: unknown command "sandbx". Did you mean sandbox? Commands: mock, sandbox, verify, update-many, export-keys, docs. See --help.',
    ]);
  });

  it.each([
    { what: 'an Error', reason: new Error('no Prism here'), message: 'no Prism here', code: 1 },
    { what: 'a UsageError', reason: new UsageError('bad'), message: 'bad', code: 2 },
    {
      what: 'an error coded as a parse error',
      reason: Object.assign(new Error('parse'), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }),
      message: 'parse',
      code: 2,
    },
    {
      what: 'an error with another code',
      reason: Object.assign(new Error('gone'), { code: 'ENOENT' }),
      message: 'gone',
      code: 1,
    },
    { what: 'a string', reason: 'plain words', message: 'plain words', code: 1 },
    { what: 'null', reason: null, message: 'null', code: 1 },
    { what: 'undefined', reason: undefined, message: 'undefined', code: 1 },
  ])('a command failing with $what exits $code with the message', async ({ reason, message, code }) => {
    const io = capture();
    expect(await main(['boom'], [boom(reason)], io)).toBe(code);
    expect(io.stderr.at(-1)).toBe(`baas-pix-contract boom: ${message}`);
    expect(io.stderr.slice(0, -1)).toEqual(
      code === 2 ? ['Usage: baas-pix-contract boom', 'See `baas-pix-contract boom --help` for every option.'] : [],
    );
  });

  it('one help layout: flags under their headings in the order the headings first appear, the help from column 32, a long synopsis on its own line, then the notes', () => {
    const layout = defineCommand({
      name: 'layout',
      summary: 'its summary',
      usage: '--a N [options]',
      options: {
        a: { type: 'string', value: 'N', group: 'First:', help: ['the a', 'and more'] },
        b: { type: 'boolean', help: ['the b'] },
        'a-very-long-flag-name-indeed': { type: 'string', short: 'l', value: 'VALUE', group: 'First:', help: ['long'] },
      },
      notes: ['A note.'],
      run: async () => 0,
    }) as unknown as Command;
    expect(commandHelp(layout)).toBe(
      [
        'Usage: baas-pix-contract layout --a N [options]',
        '',
        'its summary',
        '',
        'First:',
        `  --a N${' '.repeat(25)}the a`,
        `${' '.repeat(32)}and more`,
        '  --a-very-long-flag-name-indeed, -l VALUE',
        `${' '.repeat(32)}long`,
        '',
        'Options:',
        `  --b${' '.repeat(27)}the b`,
        '',
        'A note.',
      ].join('\n'),
    );
  });

  it('a UsageError is named so', () => {
    expect(String(new UsageError('bad'))).toBe('UsageError: bad');
  });
});

describe('the bin', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
    process.exitCode = undefined;
  });

  async function runBin(...args: string[]) {
    const argv = process.argv;
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.argv = ['/usr/bin/node', '/somewhere/cli.js', ...args];
    try {
      vi.resetModules();
      await import('../../src/cli/index.js');
    } finally {
      process.argv = argv;
    }
    const code = process.exitCode;
    process.exitCode = undefined;
    const written = { code, stdout: stdout.mock.calls.map((c) => c[0]), stderr: stderr.mock.calls.map((c) => c[0]) };
    stdout.mockRestore();
    stderr.mockRestore();
    return written;
  }

  it('runs the arguments after node and the script; each line ends with a newline; the exit code is set', async () => {
    expect(await runBin('--version')).toEqual({ code: 0, stdout: [`${version}\n`], stderr: [] });
    // The words are the dispatcher's, pinned above.
    expect(await runBin('nope')).toEqual({
      code: 2,
      stdout: [],
      stderr: [expect.stringMatching(/^baas-pix-contract: .*"nope".*\n$/)],
    });
  });
});

describe('counts in the output', () => {
  it('group digits and put the noun in the singular for one', () => {
    expect([plural(1, 'page'), plural(2, 'page'), plural(0, 'line'), plural(1000, 'more account')]).toEqual([
      '1 page',
      '2 pages',
      '0 lines',
      '1,000 more accounts',
    ]);
    expect(plural(1, 'key', 'keys')).toBe('1 key');
  });
});
