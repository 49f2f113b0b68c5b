// The options of `verify`, parsed from a command line. Credentials come through one seam
// (credentials.ts): a token, or client credentials and a client certificate as the client takes them.
import { parseArgs } from 'node:util';
import { byteLimitProblem, DEFAULT_MAX_RESPONSE_BYTES } from '../body-limit.js';
import { isInsecureRemote } from '../loopback.js';
import { CredentialError, credentialsFrom, ENV, type CredentialSource } from './credentials.js';

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

export const USAGE = `Usage: verify --base-url URL [credentials] [--pages N] [--page-size N] [--report FILE]
              [--max-requests N] [--time-budget SECONDS] [--timeout SECONDS]
              [--max-response-bytes N] [--allow-insecure-http]
              [--allow-writes --account ACCOUNT --document-number CPF --body FILE]
Checks a live service against the contract. Read-only unless --allow-writes is given.
Credentials, as the client takes them (secrets from the environment keep them out of shell history):
  --token TOKEN                 a bearer token you hold (or ${ENV.token})
  --token-url URL --client-id ID [--scope "a b"] [--auth-method basic|post]
                                OAuth2 client credentials; the secret from ${ENV.clientSecret}
                                (or --client-secret SECRET, which shell history keeps)
  --cert FILE --key FILE | --pfx FILE   a client certificate (mTLS), for the API and the token URL;
                                its passphrase from ${ENV.passphrase}
  --ca FILE                     a private authority to trust
Safety:
  --max-response-bytes N        read at most N bytes of any answer (default ${DEFAULT_MAX_RESPONSE_BYTES}, 10 MiB);
                                a larger answer is an ERROR row naming the limit (a bound of
                                verify's own, not of the contract)
  --allow-insecure-http         allow plain http to a host that is not loopback (--base-url,
                                --token-url): the token and secret travel in clear; said on
                                stderr, in the table and in the report. Without it such a URL
                                is refused before anything is sent.
Redirects are followed only for reads, to the same origin, at most 5 times (as the client does);
one to another origin, of the write, or past 5 is a DRIFT row naming Location, sent nowhere.
Secrets, tokens and CPFs are masked in the table and the report.
Exit status: 0 nothing drifted, 1 drift found, 2 usage error or the service could not be reached.`;

const positiveInt = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${name} must be a positive whole number`);
  return Number(raw);
};

export function parseVerifyArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): VerifyOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
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
      },
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
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError('--base-url must be an absolute http(s) URL');
  // fetch refuses such URLs, and a secret in a URL ends up in shell history and proxy logs.
  if (parsed.username || parsed.password) throw new UsageError(`--base-url must not carry credentials (user:password@); use --token or ${ENV.token}`);
  const allowInsecureHttp = values['allow-insecure-http'] === true;
  const insecureHttp: string[] = [];
  if (isInsecureRemote(parsed)) {
    if (!allowInsecureHttp) throw new UsageError(insecureHttpMessage('--base-url'));
    insecureHttp.push('--base-url');
  }
  const maxResponseBytes = positiveInt('max-response-bytes', values['max-response-bytes'], DEFAULT_MAX_RESPONSE_BYTES);
  // A limit past 2^53 is no limit a count of bytes can be compared with.
  if (byteLimitProblem(maxResponseBytes)) throw new UsageError(`--max-response-bytes ${byteLimitProblem(maxResponseBytes)}`);
  const pages = positiveInt('pages', values.pages, 3);
  const pageSize = positiveInt('page-size', values['page-size'], 50);
  if (pageSize > 200) throw new UsageError('--page-size must be at most 200 (the contract bound)');
  const writeFlags = [values.account, values['document-number'], values.body];
  let write: WriteOptions | undefined;
  if (values['allow-writes']) {
    if (writeFlags.some((v) => !v)) throw new UsageError('--allow-writes needs --account, --document-number and --body');
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
    // Pages, the two error probes, one PUT, and room for a Retry-After wait on each.
    maxRequests: positiveInt('max-requests', values['max-requests'], 2 * (pages + 3)),
    timeBudgetMs: positiveInt('time-budget', values['time-budget'], 120) * 1000,
    requestTimeoutMs: positiveInt('timeout', values.timeout, 15) * 1000,
    maxResponseBytes,
  };
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
  return (options.insecureHttp ?? []).map((flag) => `warning: --allow-insecure-http: ${flag} is plain http to a host that is not loopback; credentials travel in clear`);
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
