// The options of `verify`, parsed from a command line. Credentials come through one seam
// (credentials.ts): a token, or client credentials and a client certificate as the client takes them.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { byteLimitProblem, DEFAULT_MAX_RESPONSE_BYTES } from '../body-limit.js';
import { isInsecureRemote } from '../loopback.js';
import { CredentialError, credentialsFrom, ENV, MISSING_CREDENTIALS, type CredentialSource } from './credentials.js';

export { staticToken, type CredentialSource } from './credentials.js';

export interface WriteOptions {
  account: string;
  documentNumber: string;
  /** Path of a JSON file holding the update body. */
  bodyFile: string;
}

export interface VerifyOptions {
  /** Service root; may carry a gateway's path prefix (`https://gw.example/baas`). */
  baseUrl: string;
  credentials: CredentialSource;
  /** Largest number of list-keys pages walked. */
  pages: number;
  /** Page size sent as `limit` while walking. */
  pageSize: number;
  /** Most requests sent in all, retries included. */
  maxRequests: number;
  /** Wall-clock budget for the whole run, in milliseconds. */
  timeBudgetMs: number;
  /** Per-request timeout, in milliseconds (never more than what is left of the time budget). */
  requestTimeoutMs: number;
  /** Largest body read of any answer, in bytes; reading stops at the first chunk past it. */
  maxResponseBytes: number;
  /** The flags (`--base-url`, `--token-url`) whose plain http to a host that is not loopback --allow-insecure-http let through. */
  insecureHttp?: string[];
  /** Where to write the JSON report, if anywhere. */
  reportFile?: string;
  /** Present only with --allow-writes: one PUT is sent. */
  write?: WriteOptions;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Defaults of the options that have one; the parser and the help both read them. */
export const DEFAULTS = {
  pages: 3,
  pageSize: 50,
  timeBudgetSeconds: 120,
  timeoutSeconds: 15,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
} as const;

/** The contract's bound on `limit`. */
export const MAX_PAGE_SIZE = 200;

/** Pages, the two error probes, one PUT, and room for a Retry-After wait on each. */
export const defaultMaxRequests = (pages: number): number => 2 * (pages + 3);

/** Every option `verify` takes (node:util parseArgs); the help must describe each one. */
export const VERIFY_OPTIONS = {
  'base-url': { type: 'string' },
  token: { type: 'string' },
  'token-url': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  scope: { type: 'string' },
  'auth-method': { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  pfx: { type: 'string' },
  ca: { type: 'string' },
  pages: { type: 'string' },
  'page-size': { type: 'string' },
  report: { type: 'string' },
  'max-requests': { type: 'string' },
  'time-budget': { type: 'string' },
  timeout: { type: 'string' },
  'max-response-bytes': { type: 'string' },
  'allow-insecure-http': { type: 'boolean' },
  'allow-writes': { type: 'boolean' },
  account: { type: 'string' },
  'document-number': { type: 'string' },
  body: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export type VerifyOptionName = keyof typeof VERIFY_OPTIONS;

const DESCRIPTION_COLUMN = 30;
/** One help entry: its synopsis, then its text, the first line beside the synopsis. */
const entry = (synopsis: string, ...text: string[]): string[] => [
  `${synopsis.length < DESCRIPTION_COLUMN ? synopsis.padEnd(DESCRIPTION_COLUMN) : `${synopsis}   `}${text[0] ?? ''}`.trimEnd(),
  ...text.slice(1).map((line) => `${' '.repeat(DESCRIPTION_COLUMN)}${line}`),
];

interface HelpGroup {
  title: string;
  /** The options this group describes (test/cli/help.test.ts checks that every option is in one). */
  options: readonly VerifyOptionName[];
  lines: readonly string[];
}

const MIB = DEFAULTS.maxResponseBytes / (1024 * 1024);

/** The help of every option, by group; defaults come from DEFAULTS, never written twice. */
export const HELP_GROUPS = [
  {
    title: 'Target:',
    options: ['base-url'],
    lines: [...entry('--base-url URL', "the service root (required); a gateway's path prefix is kept")],
  },
  {
    title: 'Credentials (one kind is required; secrets from the environment keep them out of shell history):',
    options: ['token', 'token-url', 'client-id', 'client-secret', 'scope', 'auth-method', 'cert', 'key', 'pfx', 'ca'],
    lines: [
      ...entry('--token TOKEN', `a bearer token you hold (or ${ENV.token})`),
      ...entry(
        '--token-url URL --client-id ID [--scope "a b"] [--auth-method basic|post]',
        '',
        `OAuth2 client credentials; the secret from ${ENV.clientSecret}`,
        '(or --client-secret SECRET, which shell history keeps)',
      ),
      ...entry('  --scope "a b"', 'scopes asked of the token URL (default: none asked)'),
      ...entry('  --auth-method basic|post', 'client_secret_basic or client_secret_post (default basic)'),
      ...entry(
        '--cert FILE --key FILE | --pfx FILE',
        'a client certificate (mTLS), for the API and the token URL;',
        `its passphrase from ${ENV.passphrase} (default: none)`,
      ),
      ...entry('--ca FILE', "a private authority to trust (default: the system's)"),
    ],
  },
  {
    title: 'Walk:',
    options: ['pages', 'page-size'],
    lines: [
      ...entry('--pages N', `list-keys pages to walk at most (default ${DEFAULTS.pages})`),
      ...entry('--page-size N', `the limit sent for each page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULTS.pageSize})`),
    ],
  },
  {
    title: 'Budgets (each printed with what the run used):',
    options: ['max-requests', 'time-budget', 'timeout', 'max-response-bytes'],
    lines: [
      ...entry(
        '--max-requests N',
        'requests sent in all, retries and redirects included',
        `(default 2 × (pages + 3): ${defaultMaxRequests(DEFAULTS.pages)} with the default --pages)`,
      ),
      ...entry('--time-budget SECONDS', `wall-clock time for the whole run (default ${DEFAULTS.timeBudgetSeconds})`),
      ...entry(
        '--timeout SECONDS',
        `time for one request, never past the time budget (default ${DEFAULTS.timeoutSeconds})`,
      ),
      ...entry(
        '--max-response-bytes N',
        `read at most N bytes of any answer (default ${DEFAULTS.maxResponseBytes}, ${MIB} MiB);`,
        'a larger answer is an ERROR row naming the limit (a bound of',
        "verify's own, not of the contract)",
      ),
    ],
  },
  {
    title: 'Writes (none by default: the run is read-only):',
    options: ['allow-writes', 'account', 'document-number', 'body'],
    lines: [
      ...entry('--allow-writes', 'send one PUT of the update (never retried); needs the three below'),
      ...entry('--account ACCOUNT', 'the account to update'),
      ...entry('--document-number CPF', "its holder's CPF (masked in all output)"),
      ...entry('--body FILE', 'a JSON file holding the update body'),
    ],
  },
  {
    title: 'Output:',
    options: ['report'],
    lines: [...entry('--report FILE', 'also write the JSON report to FILE (default: the table only)')],
  },
  {
    title: 'Safety:',
    options: ['allow-insecure-http'],
    lines: [
      ...entry(
        '--allow-insecure-http',
        'allow plain http to a host that is not loopback (--base-url,',
        '--token-url): the token and secret travel in clear; said on',
        'stderr, in the table and in the report. Without it such a URL',
        'is refused before anything is sent (default: refused).',
      ),
    ],
  },
] as const satisfies readonly HelpGroup[];

/** Options no help group describes: `never` while every option has its help (checked by the type tests). */
export type UndescribedOption = Exclude<VerifyOptionName, (typeof HELP_GROUPS)[number]['options'][number]>;

export const USAGE = [
  'Usage: verify --base-url URL [credentials] [--pages N] [--page-size N] [--report FILE]',
  '              [--max-requests N] [--time-budget SECONDS] [--timeout SECONDS]',
  '              [--max-response-bytes N] [--allow-insecure-http]',
  '              [--allow-writes --account ACCOUNT --document-number CPF --body FILE]',
  'Checks a live service against the contract. Read-only unless --allow-writes is given.',
  ...HELP_GROUPS.flatMap((group) => [group.title, ...group.lines.map((line) => `  ${line}`)]),
  'Redirects are followed only for reads, to the same origin, at most 5 times (as the client does);',
  'one to another origin, of the write, or past 5 is a DRIFT row naming Location, sent nowhere.',
  'Secrets, tokens and CPFs are masked in the table and the report.',
  'Exit status: 0 nothing drifted, 1 drift found, 2 could not check: a usage error (no credentials',
  'among them), credentials the service refused, or a check that could not run.',
].join('\n');

const positiveInt = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${name} must be a positive whole number`);
  return Number(raw);
};

export function parseVerifyArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): VerifyOptions {
  let values: ReturnType<typeof parseArgs<{ args: string[]; strict: true; options: typeof VERIFY_OPTIONS }>>['values'];
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: VERIFY_OPTIONS,
    }));
  } catch (error) {
    // parseArgs names the option; it never echoes a value.
    throw new UsageError((error as Error).message);
  }
  const baseUrl = values['base-url'];
  if (!baseUrl) throw new UsageError('--base-url is required');
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new UsageError('--base-url must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError('--base-url must be an absolute http(s) URL');
  // fetch refuses such URLs, and a secret in a URL ends up in shell history and proxy logs.
  if (parsed.username || parsed.password)
    throw new UsageError(`--base-url must not carry credentials (user:password@); use --token or ${ENV.token}`);
  const allowInsecureHttp = values['allow-insecure-http'] === true;
  const insecureHttp: string[] = [];
  if (isInsecureRemote(parsed)) {
    if (!allowInsecureHttp) throw new UsageError(insecureHttpMessage('--base-url'));
    insecureHttp.push('--base-url');
  }
  const maxResponseBytes = positiveInt('max-response-bytes', values['max-response-bytes'], DEFAULTS.maxResponseBytes);
  // A limit past 2^53 is no limit a count of bytes can be compared with.
  if (byteLimitProblem(maxResponseBytes))
    throw new UsageError(`--max-response-bytes ${byteLimitProblem(maxResponseBytes)}`);
  const pages = positiveInt('pages', values.pages, DEFAULTS.pages);
  const pageSize = positiveInt('page-size', values['page-size'], DEFAULTS.pageSize);
  if (pageSize > MAX_PAGE_SIZE)
    throw new UsageError(`--page-size must be at most ${MAX_PAGE_SIZE} (the contract bound)`);
  const writeFlags = [values.account, values['document-number'], values.body];
  let write: WriteOptions | undefined;
  if (values['allow-writes']) {
    if (writeFlags.some((v) => !v))
      throw new UsageError('--allow-writes needs --account, --document-number and --body');
    write = { account: values.account!, documentNumber: values['document-number']!, bodyFile: values.body! };
  } else if (writeFlags.some((v) => v !== undefined)) {
    throw new UsageError('--account, --document-number and --body only apply with --allow-writes');
  }
  let credentials: CredentialSource;
  try {
    credentials = credentialsFrom({ ...values, 'allow-insecure-http': allowInsecureHttp }, env);
  } catch (error) {
    if (error instanceof CredentialError) throw new UsageError(error.message);
    throw error;
  }
  const options: VerifyOptions = {
    baseUrl,
    credentials,
    pages,
    pageSize,
    maxRequests: positiveInt('max-requests', values['max-requests'], defaultMaxRequests(pages)),
    timeBudgetMs: positiveInt('time-budget', values['time-budget'], DEFAULTS.timeBudgetSeconds) * 1000,
    requestTimeoutMs: positiveInt('timeout', values.timeout, DEFAULTS.timeoutSeconds) * 1000,
    maxResponseBytes,
  };
  // Last, so a misused flag is named first. The contract asks a bearer token of every operation: a run
  // without one could only check that it is refused, and would blame every other check for it.
  // (Nothing was opened: a client certificate loads on the first request.)
  if (credentials.kind === 'none') throw new UsageError(MISSING_CREDENTIALS);
  if (values['token-url'] !== undefined && isInsecureRemote(values['token-url'])) insecureHttp.push('--token-url');
  if (insecureHttp.length) options.insecureHttp = insecureHttp;
  if (values.report) options.reportFile = values.report;
  if (write) options.write = write;
  return options;
}

/** The refusal of plain http to a host that is not loopback, naming the flag (never the URL). */
export function insecureHttpMessage(flag: string): string {
  return `${flag} uses plain http to a host that is not loopback, which would send credentials in clear; use https, or pass --allow-insecure-http`;
}

/** The lines that say a run was let through on plain http (stderr, the table and the report). */
export function insecureHttpWarnings(options: Pick<VerifyOptions, 'insecureHttp'>): string[] {
  return (options.insecureHttp ?? []).map(
    (flag) =>
      `warning: --allow-insecure-http: ${flag} is plain http to a host that is not loopback; credentials travel in clear`,
  );
}

/**
 * What every output of a run masks: the credentials' secrets (tokens issued during the run join them,
 * so call it at each output), and with --allow-writes the account and the CPF as given (src/redact.ts
 * masks a CPF it is handed in any spelling).
 */
export function outputSecrets(options: Pick<VerifyOptions, 'credentials' | 'write'>): string[] {
  const out = [...options.credentials.secrets];
  if (options.write) out.push(options.write.account, options.write.documentNumber);
  return out;
}
