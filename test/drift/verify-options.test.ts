// verify's command-line options: defaults, each option's effect, and each usage error word for word
// (naming the option and its rule, never echoing a value).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL_REQUIRED } from '../../src/cli/connection/base-url.js';
import { describe, expect, it } from 'vitest';
import { commandHelp } from '../../src/cli/help.js';
import { verify } from '../../src/cli/verify.js';
import { DEFAULTS, defaultMaxRequests, MAX_LIMIT, UsageError } from '../../src/verify/options.js';
import { parseVerifyArgs } from './verify-cli.js';

const BASE = ['--base-url', 'https://gw.example/baas'];
const CPF = '52998224725';
const TOKEN = 'env-token-0123456789';
/** Parsed with a token in the environment, as a run needs one. */
const parse = (argv: string[], env: Record<string, string> = { BAAS_TOKEN: TOKEN }) => parseVerifyArgs(argv, env);

const usageError = (argv: string[], env: Record<string, string> = {}): UsageError => {
  try {
    parseVerifyArgs(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).name).toBe('UsageError');
    return error as UsageError;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

describe('parseVerifyArgs: defaults and effects', () => {
  it('with only a base URL and a token: 3 pages of 50, 12 requests, 120 s, 15 s a request, 10 MiB an answer, read-only, no report', async () => {
    const options = parse(BASE);
    expect(options).toEqual({
      baseUrl: 'https://gw.example/baas',
      credentials: expect.any(Object),
      pages: 3,
      limit: 50,
      maxRequests: 12,
      timeBudgetMs: 120_000,
      requestTimeoutMs: 15_000,
      maxResponseBytes: 10 * 1024 * 1024,
    });
    expect('reportFile' in options).toBe(false);
    expect('write' in options).toBe(false);
    expect(options.credentials.kind).toBe('token');
  });

  it('the defaults are the ones the help gives', () => {
    expect(parse(BASE)).toMatchObject({
      pages: DEFAULTS.pages,
      limit: DEFAULTS.limit,
      maxRequests: defaultMaxRequests(DEFAULTS.pages),
      timeBudgetMs: DEFAULTS.timeBudgetMs,
      requestTimeoutMs: DEFAULTS.timeoutMs,
      maxResponseBytes: DEFAULTS.maxResponseBytes,
    });
    expect(usageError([...BASE, '--limit', String(MAX_LIMIT + 1)], { BAAS_TOKEN: TOKEN }).message).toMatch(/^--limit /);
    expect(parse([...BASE, '--limit', String(MAX_LIMIT)]).limit).toBe(MAX_LIMIT);
  });

  it('takes each option; the request budget follows --pages unless given', () => {
    expect(
      parse([
        ...BASE,
        '--pages',
        '5',
        '--limit',
        '200',
        '--time-budget-ms',
        '30000',
        '--timeout-ms',
        '2000',
        '--report',
        'out.json',
      ]),
    ).toMatchObject({
      pages: 5,
      limit: 200,
      maxRequests: 16,
      timeBudgetMs: 30_000,
      requestTimeoutMs: 2_000,
      reportFile: 'out.json',
    });
    expect(parse([...BASE, '--pages', '5', '--max-requests', '1']).maxRequests).toBe(1);
    expect(parse([...BASE, '--pages', '1', '--limit', '1']).limit).toBe(1);
  });

  it('--allow-writes with its three options: one write', () => {
    expect(
      parse([...BASE, '--allow-writes', '--account', '300541976902', '--document-number', CPF, '--body', 'update.json'])
        .write,
    ).toEqual({ account: '300541976902', documentNumber: CPF, bodyFile: 'update.json' });
  });

  it('the token from --token, else from BAAS_TOKEN', async () => {
    expect(
      await parse([...BASE, '--token', 'flag-token-123'], { BAAS_TOKEN: 'env-token-456' }).credentials.authorization(),
    ).toBe('Bearer flag-token-123');
    expect(await parse(BASE, { BAAS_TOKEN: 'env-token-456' }).credentials.authorization()).toBe('Bearer env-token-456');
  });

  /** A file in the form of a certificate (a PEM block, which `tls` checks at once). */
  const pemFile = () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verify-options-')), 'ca.crt');
    writeFileSync(path, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    return path;
  };

  it('no credentials at all (no --token, no BAAS_TOKEN, no client credentials): a usage error naming where they come from', () => {
    for (const [argv, env] of [
      [BASE, {}],
      [BASE, { BAAS_TOKEN: '' }],
      [[...BASE, '--token', ''], {}],
      // A client certificate alone is no credential: the contract asks a bearer token of every call.
      [[...BASE, '--ca', pemFile()], {}],
    ] as const) {
      const { message } = usageError([...argv], env);
      for (const named of ['--token', 'BAAS_TOKEN', '--token-url', '--client-id', 'BAAS_CLIENT_SECRET'])
        expect(message).toContain(named);
    }
  });

  // `--token T --auth-method basic` was told "give either --token or client credentials, not both".
  it('refuses --auth-method or --scope beside --token as settings of client credentials, not as a second credential', () => {
    for (const extra of [
      ['--auth-method', 'client_secret_post'],
      ['--scope', 'pix.read'],
    ]) {
      const { message } = usageError(['--base-url', 'http://127.0.0.1:4020', '--token', 't', ...extra], {});
      expect(message).toMatch(
        /^--scope and --auth-method apply to client credentials .* with --token, leave them out$/,
      );
    }
    const both = usageError(['--base-url', 'http://127.0.0.1:4020', '--token', 't', '--client-id', 'c'], {});
    expect(both.message).toMatch(/not both$/);
  });

  it('refuses a token given as the header value ("Bearer sbx_…"), naming where it came from, never showing it', () => {
    const byFlag = usageError(['--base-url', 'http://127.0.0.1:4020', '--token', 'Bearer sbx_secret_9'], {});
    expect(byFlag.message).toMatch(/^--token starts with "Bearer "/);
    const byEnv = usageError(['--base-url', 'http://127.0.0.1:4020'], { BAAS_TOKEN: 'bearer sbx_secret_9' });
    expect(byEnv.message).toMatch(/^BAAS_TOKEN starts with "Bearer "/);
    expect(byFlag.message + byEnv.message).not.toContain('sbx_secret_9');
  });

  // A token read from a file, or from a .env saved on Windows, keeps its line ending: it would reach every
  // request as a header that is not valid HTTP, each check an ERROR with words that never name the token.
  it.each([
    [
      'a CR at the end (a .env saved on Windows)',
      'sbx_secret_9\r',
      /^BAAS_TOKEN ends with a line break, .*give the token alone/,
    ],
    ['a newline at the end (read from a file)', 'sbx_secret_9\n', /^BAAS_TOKEN ends with a line break/],
    ['a tab inside', 'sbx_secret\t9', /^BAAS_TOKEN holds a control character/],
  ])('refuses a token with %s as a usage error, before any request, never showing it', (_what, token, rule) => {
    const byEnv = usageError(['--base-url', 'http://127.0.0.1:4020'], { BAAS_TOKEN: token });
    expect(byEnv.message).toMatch(rule);
    const byFlag = usageError(['--base-url', 'http://127.0.0.1:4020', '--token', token], {});
    expect(byFlag.message).toMatch(/^--token (ends with a line break|holds a control character)/);
    expect(byFlag.message + byEnv.message).not.toContain('sbx_secret');
  });

  it("refuses an operation's URL as --base-url, naming the root to give", () => {
    const { message } = usageError(
      ['--base-url', 'http://127.0.0.1:4020/v2/api/pix/keys/list-keys', '--token', 't'],
      {},
    );
    expect(message).toMatch(/^--base-url .*\/v2\/api\/pix\/keys\/list-keys.*http:\/\/127\.0\.0\.1:4020$/);
  });

  it('an http base URL is fine too', () => {
    expect(parse(['--base-url', 'http://127.0.0.1:4010']).baseUrl).toBe('http://127.0.0.1:4010');
  });
});

const NO_SCHEME =
  '--base-url has no scheme: start it with https:// (or http:// for a sandbox on this machine, e.g. http://127.0.0.1:4020)';
const NOT_HTTP_URL =
  '--base-url must be an absolute http(s) URL, e.g. https://api.provider.example or http://127.0.0.1:4020';

describe('parseVerifyArgs: usage errors', () => {
  it.each([
    [[], BASE_URL_REQUIRED],
    [['--base-url', ''], BASE_URL_REQUIRED],
    [['--base-url', 'gw.example/baas'], NO_SCHEME],
    [['--base-url', '127.0.0.1:4020'], NO_SCHEME],
    [['--base-url', 'localhost:4020'], NO_SCHEME],
    [['--base-url', 'ftp://gw.example'], NOT_HTTP_URL],
    [['--base-url', 'file:///etc/passwd'], NOT_HTTP_URL],
    [['--base-url', 'http://'], NOT_HTTP_URL],
    [
      ['--base-url', 'https://user:pw-secret-1@gw.example'],
      '--base-url must not carry credentials (user:password@); use --token or BAAS_TOKEN',
    ],
    [
      ['--base-url', 'https://user-only@gw.example'],
      '--base-url must not carry credentials (user:password@); use --token or BAAS_TOKEN',
    ],
    [
      ['--base-url', 'https://:pw-secret-1@gw.example'],
      '--base-url must not carry credentials (user:password@); use --token or BAAS_TOKEN',
    ],
    [
      [...BASE, '--limit', '201'],
      "--limit must be a whole number from 1 to 200, the keys asked for each page (the contract's bound), e.g. --limit 50: the one given is more than 200",
    ],
    [
      [...BASE, '--limit', '0'],
      "--limit must be a whole number from 1 to 200, the keys asked for each page (the contract's bound), e.g. --limit 50: the one given asks for no keys",
    ],
    [
      [...BASE, '--limit=1.5'],
      "--limit must be a whole number from 1 to 200, the keys asked for each page (the contract's bound), e.g. --limit 50: the one given is not a whole number",
    ],
    [
      [...BASE, '--allow-writes', '--document-number', CPF, '--body', 'b.json'],
      '--allow-writes needs --account, --document-number and --body',
    ],
    [
      [...BASE, '--allow-writes', '--account', '1', '--body', 'b.json'],
      '--allow-writes needs --account, --document-number and --body',
    ],
    [
      [...BASE, '--allow-writes', '--account', '1', '--document-number', CPF],
      '--allow-writes needs --account, --document-number and --body',
    ],
    [
      [...BASE, '--allow-writes', '--account', '', '--document-number', CPF, '--body', 'b.json'],
      '--allow-writes needs --account, --document-number and --body',
    ],
    [[...BASE, '--account', '1'], '--account, --document-number and --body only apply with --allow-writes'],
    [[...BASE, '--document-number', CPF], '--account, --document-number and --body only apply with --allow-writes'],
    [[...BASE, '--body', 'b.json'], '--account, --document-number and --body only apply with --allow-writes'],
    [[...BASE, '--account', ''], '--account, --document-number and --body only apply with --allow-writes'],
  ])('%j: %s', (argv, message) => {
    expect(usageError(argv).message).toBe(message);
  });

  it.each(['pages', 'max-requests', 'time-budget-ms', 'timeout-ms'])(
    '--%s must be a positive whole number: 0, -1, 1.5, 2x, x2 and an empty value are refused, 1 is taken',
    (name) => {
      for (const value of ['0', '-1', '1.5', '2x', 'x2', '']) {
        expect(usageError([...BASE, `--${name}=${value}`]).message).toBe(`--${name} must be a positive whole number`);
      }
      expect(() => parse([...BASE, `--${name}`, '1'])).not.toThrow();
    },
  );

  it('an unknown option or a stray argument is a usage error naming it', () => {
    expect(usageError([...BASE, '--nope']).message).toMatch(/^unknown option --nope/);
    expect(usageError([...BASE, '--pagess', '2']).message).toMatch(/--pagess.*did you mean --pages\?$/);
    expect(usageError([...BASE, 'extra']).message).toMatch(/1 other argument/);
    expect(usageError([...BASE, 'extra']).message).not.toContain('extra');
    expect(usageError([...BASE, '--pages']).message).toMatch(/^--pages needs a value: --pages N/);
  });

  it('a credentials misuse is a usage error with the credentials message', () => {
    expect(usageError([...BASE, '--token', 'tok-123456', '--client-id', 'pix']).message).toBe(
      'give either --token or client credentials (--token-url, --client-id), not both',
    );
    expect(usageError([...BASE, '--token', 'tok-123456', '--scope', 'pix']).message).toBe(
      '--scope and --auth-method apply to client credentials (--token-url, --client-id) only; with --token, leave them out',
    );
  });

  it('no message echoes the value it refused', () => {
    for (const [argv, value] of [
      [[...BASE, '--pages', '98765x'], '98765x'],
      [['--base-url', `https://u:${CPF}@gw.example`], CPF],
      [[...BASE, '--document-number', CPF], CPF],
      [[...BASE, '--unknown-flag-with-value=abc-secret-9'], 'abc-secret-9'],
    ] as const) {
      expect(usageError([...argv]).message).not.toContain(value);
    }
  });
});

describe('verify --help', () => {
  it('names every option, where secrets come from, and the exit statuses', () => {
    const USAGE = commandHelp(verify);
    for (const option of [
      '--base-url URL',
      '--pages N',
      '--limit N',
      '--report FILE',
      '--max-requests N',
      '--time-budget-ms MS',
      '--timeout-ms MS',
      '--allow-writes',
      '--account ACCOUNT',
      '--document-number CPF',
      '--body FILE',
      '--token TOKEN',
      'BAAS_TOKEN',
      'BAAS_CLIENT_SECRET',
      'BAAS_TLS_PASSPHRASE',
      '--ca FILE',
    ]) {
      expect(USAGE).toContain(option);
    }
    expect(USAGE).toMatch(/^Usage: baas-pix-contract verify --base-url URL/);
    expect(USAGE).toMatch(/Exit status: 0 nothing drifted, 1 drift found, 2 could not check/);
  });
});
