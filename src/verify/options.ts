// The options of `verify`, checked from the values of its flags (src/cli/verify.ts declares and parses
// them). Credentials, the base URL and plain http come from the command line's connection layer
// (src/cli/connection/), shared with the batch commands: a token, or client credentials and a client certificate.
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../generated/bounds.js';
import { byteLimitProblem, DEFAULT_MAX_RESPONSE_BYTES } from '../body-limit.js';
import { isInsecureRemote } from '../loopback.js';
import { UsageError } from '../usage-error.js';
import type { Secrets } from '../redact.js';
import {
  CredentialError,
  credentialsFrom,
  MISSING_CREDENTIALS,
  type CredentialFlags,
  type CredentialSource,
} from '../cli/connection/credentials.js';
import { baseUrlFlag } from '../cli/connection/base-url.js';

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
  /** The page size sent as `limit` while walking. */
  limit: number;
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

export { UsageError };

/**
 * The values of verify's flags as the command line parsed them (src/cli/verify.ts declares them): the
 * credentials' flags (one list, credentials.ts) and verify's own.
 */
export interface VerifyValues extends CredentialFlags {
  'base-url'?: string | undefined;
  pages?: string | undefined;
  limit?: string | undefined;
  report?: string | undefined;
  'max-requests'?: string | undefined;
  'time-budget-ms'?: string | undefined;
  'timeout-ms'?: string | undefined;
  'max-response-bytes'?: string | undefined;
  'allow-writes'?: boolean | undefined;
  account?: string | undefined;
  'document-number'?: string | undefined;
  body?: string | undefined;
}

/** Defaults of the options that have one; the checks and the help both read them. */
export const DEFAULTS = {
  pages: 3,
  limit: 50,
  timeBudgetMs: 120_000,
  timeoutMs: 15_000,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
} as const;

/** The contract's bound on `limit`, the page size of list-keys: the spec's, through src/generated/bounds.ts. */
export const MAX_LIMIT = PAGE_LIMIT_MAX;

/** Pages, the two error probes, one PUT, and room for a Retry-After wait on each. */
export const defaultMaxRequests = (pages: number): number => 2 * (pages + 3);

const positiveInt = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${name} must be a positive whole number`);
  return Number(raw);
};

/** `--limit N`, the page size, checked once for every command that walks pages (verify, export-keys). */
export function limitFrom(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  // What was wrong with it, in words (a page of no keys is the mistake `--limit 0` makes).
  const wrong = !/^[0-9]+$/.test(raw)
    ? 'the one given is not a whole number'
    : Number(raw) < PAGE_LIMIT_MIN
      ? 'the one given asks for no keys'
      : Number(raw) > MAX_LIMIT
        ? `the one given is more than ${MAX_LIMIT}`
        : undefined;
  if (wrong !== undefined)
    throw new UsageError(
      `--limit must be a whole number from ${PAGE_LIMIT_MIN} to ${MAX_LIMIT}, the keys asked for each page (the contract's bound), e.g. --limit 50: ${wrong}`,
    );
  return Number(raw);
}

/** verify's options from its flags' values; a UsageError naming the flag for any misuse, before anything is sent. */
export function verifyOptions(
  values: VerifyValues,
  env: Readonly<Record<string, string | undefined>> = {},
): VerifyOptions {
  const allowInsecureHttp = values['allow-insecure-http'] === true;
  const { baseUrl, insecure } = baseUrlFlag(values['base-url'], allowInsecureHttp);
  const insecureHttp: string[] = insecure ? ['--base-url'] : [];
  const maxResponseBytes = positiveInt('max-response-bytes', values['max-response-bytes'], DEFAULTS.maxResponseBytes);
  // A limit past 2^53 is no limit a count of bytes can be compared with.
  if (byteLimitProblem(maxResponseBytes))
    throw new UsageError(`--max-response-bytes ${byteLimitProblem(maxResponseBytes)}`);
  const pages = positiveInt('pages', values.pages, DEFAULTS.pages);
  const limit = limitFrom(values.limit, DEFAULTS.limit);
  const writeFlags = [values.account, values['document-number'], values.body];
  let write: WriteOptions | undefined;
  if (values['allow-writes']) {
    if (writeFlags.some((v) => !v))
      throw new UsageError('--allow-writes needs --account, --document-number and --body');
    // Kept as given: the update's one check is checkedWrite (src/verify/write.ts, the client's
    // preflightUpdate), which sends the CPF as people write it (`529.982.247-25`) as its 11 digits and
    // refuses one that cannot be, with every other problem of the update, before anything is sent.
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
    limit,
    maxRequests: positiveInt('max-requests', values['max-requests'], defaultMaxRequests(pages)),
    timeBudgetMs: positiveInt('time-budget-ms', values['time-budget-ms'], DEFAULTS.timeBudgetMs),
    requestTimeoutMs: positiveInt('timeout-ms', values['timeout-ms'], DEFAULTS.timeoutMs),
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

/**
 * The one holder of what every output of a run masks: the credentials' (src/cli/connection/credentials.ts
 * `secretsOf`: held as a client holds its own, so tokens issued during the run join them, read at
 * each use), and with --allow-writes the account and the CPF as given (src/redact.ts masks a CPF it is
 * handed in any spelling).
 */
export function outputSecrets(options: Pick<VerifyOptions, 'credentials' | 'write'>): Secrets {
  const secrets = options.credentials.secretsOf();
  return options.write ? secrets.with([options.write.account, options.write.documentNumber]) : secrets;
}
