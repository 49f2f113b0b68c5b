// What the command line prints for help, word for word (the one place that pins the help texts and the
// usage errors' format; other tests assert what they name), and the dispatcher's rules: `help`, `-h`,
// `-v`, the usage hint after a usage error, a command that fails with something not an Error, and
// the bin itself (process.argv in, process.exitCode out, lines on stdout and stderr).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { UsageError, defineCommand, type Command } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { commandHelp, main, mainHelp } from '../../src/cli/main.js';
import { BATCH_DEFAULTS } from '../../src/cli/batch/options.js';
import {
  DEFAULTS,
  defaultMaxRequests,
  MAX_PAGE_SIZE,
  HELP_GROUPS,
  VERIFY_OPTIONS,
  type UndescribedOption,
} from '../../src/verify/options.js';
import { capture } from './in-process.js';

const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

const MAIN_HELP = `baas-pix-contract ${version}: the BaaS natural-person update and PIX key listing contract

Usage: baas-pix-contract <command> [options]

Commands:
  mock         serve the contract with Prism (examples, or generated responses with --dynamic)
  sandbox      serve the stateful sandbox (seeded clients, accounts and keys; real pages; accurate errors)
  verify       check a live service (or a sandbox) against the contract; exit 0 only when nothing drifted
  update-many  update many customers from a JSONL or CSV file: validated first, paced, journaled, resumable
  export-keys  write every PIX key to a JSONL or CSV file, paced and resumable
  docs         write the HTML docs of the contract (one page that works offline) into a folder

Options:
  --help, -h     this help; \`<command> --help\` for a command's own
  --version, -v  the version of the package (and of the contract)`;

const HELP: Record<string, string> = {
  mock: `Usage: baas-pix-contract mock [--port N] [--host H] [--dynamic] [--seed S] [--errors] [--spec FILE]

serve the contract with Prism (examples, or generated responses with --dynamic)

  --port, -p N   port to listen on (default 4010; 0 picks a free one)
  --host H       interface to listen on (default 127.0.0.1; 0.0.0.0 opens it to the network)
  --dynamic      generate responses from the schemas instead of serving the examples
  --seed S       seed for --dynamic, so that a run can be repeated
  --errors       answer with an error when a response would break the contract
  --spec FILE    serve another OpenAPI document (default: the one in this package)
  Needs @stoplight/prism-cli@~5.14 installed next to this package (an optional peer).`,
  sandbox: `Usage: baas-pix-contract sandbox [--port N] [--host H] [--seed S] [--clients N] [--accounts N] [--keys N] [--token-ttl SECONDS] [--rate-limit N] [--faults LIST]

serve the stateful sandbox (seeded clients, accounts and keys; real pages; accurate errors)

  --port, -p N   port to listen on (default 4020; 0 picks a free one)
  --host H       interface to listen on (default 127.0.0.1; 0.0.0.0 opens it to the network)
  --seed S       same seed, same data, byte for byte (default "baas-pix-contract")
  --clients N    API clients, one token each (default 2, at most 1,000)
  --accounts N   customer accounts per client (default 2, at most 100,000)
  --keys N       PIX keys per account (default 5, one of each type; 0 to 100,000)
                 in all at most 100,000 accounts (clients × accounts) and 250,000 keys
                 (clients × accounts × keys), at most about 350 MB; for batch work, --keys 0
  --token-ttl SECONDS
                 lifetime of the tokens /oauth/token issues (default 300, at most 86,400); an
                 expired one gets a 401 on the API; the static tokens never expire
  --rate-limit N requests per second per client (default none, at most 1,000,000): N at once,
                 then N a second; past it 429 with Retry-After; RateLimit fields on its answers
  --faults LIST  faults on a share of the API's answers (default none): a comma-separated list
                 of STATUS:SHARE[:retry-after=SECONDS], SHARE above 0 and at most 1, drawn from
                 the seed; retry-after (0 to 86,400, default 30) for a 429 or 503 only.
                 E.g. --faults 503:0.05:retry-after=0,429:0.01
  Past the fifth key of an account, a few keys have another status (pending, inactivated, …) or a
  company (CNPJ) as holder; with the default seed, --keys 100 shows every one.
  Prints the counts, the token URL, the rate limit and faults, and each client's static token,
  client_id and client_secret and accounts (the first 1,000 of each); logs one line per request
  (no token, no secret, no CPF).
  Needs @faker-js/faker@^10 and @hono/node-server@^2 installed next to this package (optional peers).`,
  verify: `Usage: baas-pix-contract verify --base-url URL [credentials] [--pages N] [--page-size N] [--report FILE] [--max-requests N] [--time-budget SECONDS] [--timeout SECONDS] [--max-response-bytes N] [--allow-insecure-http] [--allow-writes --account ACCOUNT --document-number CPF --body FILE]

check a live service (or a sandbox) against the contract; exit 0 only when nothing drifted

  Checks a live service against the contract. Read-only unless --allow-writes is given.
  Target:
    --base-url URL                the service root (required); a gateway's path prefix is kept
  Credentials (one kind is required; secrets from the environment keep them out of shell history):
    --token TOKEN                 a bearer token you hold (or BAAS_TOKEN)
    --token-url URL --client-id ID [--scope "a b"] [--auth-method basic|post]
                                  OAuth2 client credentials; the secret from BAAS_CLIENT_SECRET
                                  (or --client-secret SECRET, which shell history keeps)
      --scope "a b"               scopes asked of the token URL (default: none asked)
      --auth-method basic|post    client_secret_basic or client_secret_post (default basic)
    --cert FILE --key FILE | --pfx FILE   a client certificate (mTLS), for the API and the token URL;
                                  its passphrase from BAAS_TLS_PASSPHRASE (default: none)
    --ca FILE                     a private authority to trust (default: the system's)
  Walk:
    --pages N                     list-keys pages to walk at most (default 3)
    --page-size N                 the limit sent for each page, 1 to 200 (default 50)
  Budgets (each printed with what the run used):
    --max-requests N              requests sent in all, retries and redirects included
                                  (default 2 × (pages + 3): 12 with the default --pages)
    --time-budget SECONDS         wall-clock time for the whole run (default 120)
    --timeout SECONDS             time for one request, never past the time budget (default 15)
    --max-response-bytes N        read at most N bytes of any answer (default 10485760, 10 MiB);
                                  a larger answer is an ERROR row naming the limit (a bound of
                                  verify's own, not of the contract)
  Writes (none by default: the run is read-only):
    --allow-writes                send one PUT of the update (never retried); needs the three below
    --account ACCOUNT             the account to update
    --document-number CPF         its holder's CPF (masked in all output)
    --body FILE                   a JSON file holding the update body
  Output:
    --report FILE                 also write the JSON report to FILE (default: the table only)
  Safety:
    --allow-insecure-http         allow plain http to a host that is not loopback (--base-url,
                                  --token-url): the token and secret travel in clear; said on
                                  stderr, in the table and in the report. Without it such a URL
                                  is refused before anything is sent (default: refused).
  Redirects are followed only for reads, to the same origin, at most 5 times (as the client does);
  one to another origin, of the write, or past 5 is a DRIFT row naming Location, sent nowhere.
  Secrets, tokens and CPFs are masked in the table and the report.
  Exit status: 0 nothing drifted, 1 drift found, 2 could not check: a usage error (no credentials
  among them), credentials the service refused, or a check that could not run.`,
  'update-many': `Usage: baas-pix-contract update-many --input FILE --base-url URL [credentials] [--concurrency N] [--rate N] [--journal FILE] [--report FILE] [--dry-run]

update many customers from a JSONL or CSV file: validated first, paced, journaled, resumable

  Input:
    --input FILE                  the updates (required): JSONL, one {"account","documentNumber","body"}
                                  a line; or CSV (a .csv name) with a header: Account, DocumentNumber
                                  and body fields in dotted form (address.city), true/false for
                                  isPoliticallyExposedPerson; an empty cell sends nothing
    --dry-run                     check every line and send nothing, not even for a token: each bad
                                  line as "line N: field: rule"; exit 1 if any is bad (default: off)
  Target:
    --base-url URL                the service root (required); a gateway's path prefix is kept
  Credentials (one kind is required; secrets from the environment keep them out of shell history):
    --token TOKEN                 a bearer token you hold (or BAAS_TOKEN)
    --token-url URL --client-id ID [--scope "a b"] [--auth-method basic|post]
                                  OAuth2 client credentials; the secret from BAAS_CLIENT_SECRET
                                  (or --client-secret SECRET, which shell history keeps)
      --scope "a b"               scopes asked of the token URL (default: none asked)
      --auth-method basic|post    client_secret_basic or client_secret_post (default basic)
    --cert FILE --key FILE | --pfx FILE   a client certificate (mTLS), for the API and the token URL;
                                  its passphrase from BAAS_TLS_PASSPHRASE (default: none)
    --ca FILE                     a private authority to trust (default: the system's)
  Pace:
    --concurrency N               requests in flight at most, 1 to 256 (default 8);
                                  lowered for a while after a 429 or 503
    --rate N                      requests per second at most (default: none; the pace is found from
                                  the service's 429s, Retry-After and rate-limit headers)
  Resume and output:
    --journal FILE                record each line's outcome (append-only, synced every 50 lines or
                                  200 ms); the same command with the same journal skips the lines
                                  done and tries the failed ones again (default: no journal)
    --report FILE                 write a JSON report: the settings, each line's outcome, the summary
                                  (default: the summary on stdout only)
  Safety:
    --allow-insecure-http         allow plain http to a host that is not loopback (default: refused);
                                  the token and secret would travel in clear
  Every line is checked before anything is sent; bad lines are listed and skipped. Progress goes
  to stderr (a bar on a terminal, a line every 5 s elsewhere). No CPF, account or token is shown.
  Ctrl-C (or SIGTERM) stops taking lines, lets the requests in flight finish and flushes the
  journal; a second Ctrl-C aborts them.
  Exit status: 0 every line done (now or in the journal), 1 a line failed or is invalid, 2 a usage
  error or credentials refused, 130 stopped by SIGINT, 143 by SIGTERM.`,
  'export-keys': `Usage: baas-pix-contract export-keys --out FILE --base-url URL [credentials] [--rate N] [--page-size N] [--journal FILE] [--report FILE]

write every PIX key to a JSONL or CSV file, paced and resumable

  Output:
    --out FILE                    where the keys go (required): a .csv name gives CSV with a header
                                  row (nested members dotted: beneficiary_entity.name); any other
                                  name JSONL, one key a line as the API gave it
  Target:
    --base-url URL                the service root (required); a gateway's path prefix is kept
  Credentials (one kind is required; secrets from the environment keep them out of shell history):
    --token TOKEN                 a bearer token you hold (or BAAS_TOKEN)
    --token-url URL --client-id ID [--scope "a b"] [--auth-method basic|post]
                                  OAuth2 client credentials; the secret from BAAS_CLIENT_SECRET
                                  (or --client-secret SECRET, which shell history keeps)
      --scope "a b"               scopes asked of the token URL (default: none asked)
      --auth-method basic|post    client_secret_basic or client_secret_post (default basic)
    --cert FILE --key FILE | --pfx FILE   a client certificate (mTLS), for the API and the token URL;
                                  its passphrase from BAAS_TLS_PASSPHRASE (default: none)
    --ca FILE                     a private authority to trust (default: the system's)
  Pace:
    --rate N                      requests per second at most (default: none; the pace is found from
                                  the service's 429s, Retry-After and rate-limit headers)
    --page-size N                 keys asked for each page, 1 to 200 (default 200)
  Resume and output:
    --journal FILE                after each page is written and synced, record the file's length and
                                  the next cursor; the same command with the same journal cuts the file
                                  back to the last page recorded and goes on from there, so each key is
                                  written exactly once (default: no journal; a rerun starts over)
    --report FILE                 write a JSON report: the settings, each page's count, the summary
                                  (default: the summary on stdout only)
  Safety:
    --allow-insecure-http         allow plain http to a host that is not loopback (default: refused);
                                  the token and secret would travel in clear
  Ctrl-C (or SIGTERM) stops after the page in flight is written and journaled.
  Exit status: 0 every key written, 1 the run failed (rerun with the journal to go on), 2 a usage
  error, 130 stopped by SIGINT, 143 by SIGTERM.`,
  docs: `Usage: baas-pix-contract docs --out DIR

write the HTML docs of the contract (one page that works offline) into a folder

  --out DIR, -o DIR   folder to write index.html into (created if missing)
  Needs @redocly/cli@^2 installed next to this package (an optional peer).`,
};

describe('help, word for word', () => {
  it.each([['--help'], ['-h'], ['help']])('`%s` prints the command list and exits 0', async (flag) => {
    const io = capture();
    expect(await main([flag], COMMANDS, io)).toBe(0);
    expect(io.stdout).toEqual([MAIN_HELP]);
    expect(io.stderr).toEqual([]);
  });

  it('no command at all prints the same list on stdout and exits 2', async () => {
    const io = capture();
    expect(await main([], COMMANDS, io)).toBe(2);
    expect(io.stdout).toEqual([MAIN_HELP]);
    expect(mainHelp()).toBe(MAIN_HELP);
  });

  it('the command list is padded to the longest name', () => {
    const named = (name: string) => ({ name, summary: `about ${name}` }) as Command;
    expect(
      mainHelp([named('a'), named('long-one')])
        .split('\n')
        .slice(5, 7),
    ).toEqual(['  a         about a', '  long-one  about long-one']);
  });

  it.each(Object.keys(HELP))('`%s --help` and `-h` print its usage, summary and options', async (name) => {
    for (const flag of ['--help', '-h']) {
      const io = capture();
      expect(await main([name, flag], COMMANDS, io)).toBe(0);
      expect(io.stdout).toEqual([HELP[name]]);
    }
    expect(commandHelp(COMMANDS.find((c) => c.name === name)!)).toBe(HELP[name]);
  });

  it.each([['--version'], ['-v']])('`%s` prints the version alone', async (flag) => {
    const io = capture();
    expect(await main([flag], COMMANDS, io)).toBe(0);
    expect(io.stdout).toEqual([version]);
  });
});

describe('verify --help describes every option it takes', () => {
  const io = capture();
  const helped = main(['verify', '--help'], COMMANDS, io).then(() => io.stdout.join('\n'));
  // Below the usage line: where options get their meaning (the usage line only names them).
  const described = async () => (await helped).split('\n').slice(1).join('\n');

  it.each(Object.keys(VERIFY_OPTIONS))(
    "--%s, from the parser's own option table, is described below the usage line",
    async (name) => {
      expect(await described()).toMatch(new RegExp(`(^|[\\s(\\[])--${name}(?![\\w-])`, 'm'));
      expect(HELP_GROUPS.some((group) => (group.options as readonly string[]).includes(name))).toBe(true);
    },
  );

  it('no option lacks a help group (a type-level check too)', () => {
    expectTypeOf<UndescribedOption>().toEqualTypeOf<never>();
    expect(HELP_GROUPS.flatMap((group) => group.options).sort()).toEqual(Object.keys(VERIFY_OPTIONS).sort());
  });

  it.each([
    ['--pages N', DEFAULTS.pages],
    ['--page-size N', DEFAULTS.pageSize],
    ['--max-requests N', defaultMaxRequests(DEFAULTS.pages)],
    ['--time-budget SECONDS', DEFAULTS.timeBudgetSeconds],
    ['--timeout SECONDS', DEFAULTS.timeoutSeconds],
    ['--max-response-bytes N', DEFAULTS.maxResponseBytes],
  ])('%s gives the default the parser uses (%i)', async (synopsis, value) => {
    const lines = (await described()).split('\n');
    const at = lines.findIndex((line) => line.trimStart().startsWith(synopsis));
    // The option's own line and its continuation lines (indented deeper, no option of their own).
    const after = lines.slice(at + 1);
    const continued = after.findIndex((line) => !/^ {30,}\S/.test(line));
    const own = [lines[at]!, ...after.slice(0, continued)].join(' ');
    expect(own).toMatch(new RegExp(`\\(default .*\\b${value}\\b`));
  });

  it('groups: target, credentials, walk, budgets, writes, output, safety, in that order', async () => {
    const titles = (await described())
      .split('\n')
      .filter((line) => /^ {2}[A-Z][a-z]+( \(.*\))?:$/.test(line))
      .map((line) => line.trim().split(/[ :]/)[0]);
    expect(titles).toEqual(['Target', 'Credentials', 'Walk', 'Budgets', 'Writes', 'Output', 'Safety']);
  });
});

describe('update-many and export-keys --help describe every option they take, with its default', () => {
  it.each(['update-many', 'export-keys'])('%s', async (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    const io = capture();
    await main([name, '--help'], COMMANDS, io);
    const described = io.stdout.join('\n').split('\n').slice(1).join('\n');
    for (const option of Object.keys(command.options))
      expect(described, option).toMatch(new RegExp(`(^|[\\s(\\[])--${option}(?![\\w-])`, 'm'));
    expect(described).toContain(`(default ${BATCH_DEFAULTS.concurrency}`.repeat(name === 'update-many' ? 1 : 0));
    expect(described).toContain(`(default ${MAX_PAGE_SIZE})`.repeat(name === 'export-keys' ? 1 : 0));
  });
});

describe('the dispatcher', () => {
  const boom = (reason: unknown) =>
    defineCommand({
      name: 'boom',
      summary: 's',
      usage: '',
      details: [],
      options: {},
      run: () => Promise.reject(reason),
    }) as unknown as Command;

  it("a usage error: the message, then the hint at the command's help, exit 2", async () => {
    const io = capture();
    expect(await main(['mock', '--port', 'x'], COMMANDS, io)).toBe(2);
    expect(io.stderr).toEqual([
      'baas-pix-contract mock: --port must be a whole number from 0 to 65535, got "x"',
      'See `baas-pix-contract mock --help`.',
    ]);
    expect(io.stdout).toEqual([]);
  });

  it('an unknown option is a usage error too', async () => {
    const io = capture();
    expect(await main(['docs', '--outt', 'x'], COMMANDS, io)).toBe(2);
    expect(io.stderr[0]).toMatch(/^baas-pix-contract docs: .*'--outt'/);
    expect(io.stderr[1]).toBe('See `baas-pix-contract docs --help`.');
  });

  it('an unknown command names the ones there are, exit 2', async () => {
    const io = capture();
    expect(await main(['serve'], COMMANDS, io)).toBe(2);
    expect(io.stderr).toEqual([
      'baas-pix-contract: unknown command "serve". Commands: mock, sandbox, verify, update-many, export-keys, docs. See --help.',
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
    expect(io.stderr[0]).toBe(`baas-pix-contract boom: ${message}`);
    expect(io.stderr.slice(1)).toEqual(code === 2 ? ['See `baas-pix-contract boom --help`.'] : []);
  });

  it('a command with its own arguments gets every argument untouched, --help included unless first', async () => {
    const seen: unknown[] = [];
    const own = defineCommand({
      name: 'own',
      summary: 'its own parser',
      usage: '[anything]',
      details: ['detail'],
      options: {},
      ownArguments: true,
      async run(values, positionals) {
        seen.push(values, positionals);
        return 3;
      },
    }) as unknown as Command;
    const io = capture();
    expect(await main(['own', '--x', '1', '--help'], [own], io)).toBe(3);
    expect(seen).toEqual([{}, ['--x', '1', '--help']]);
    expect(await main(['own', '-h'], [own], io)).toBe(0);
    expect(io.stdout).toEqual(['Usage: baas-pix-contract own [anything]\n\nits own parser\n\n  detail']);
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
