// The flags update-many and export-keys share: verify's target and credential flags (parsed by
// src/verify, the one place that knows them), and the pace of the work.
import {
  type CredentialSource,
  CredentialError,
  credentialsFrom,
  MISSING_CREDENTIALS,
} from '../../verify/credentials.js';
import { checkBaseUrl, HELP_GROUPS, VERIFY_OPTIONS, UsageError as VerifyUsageError } from '../../verify/options.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, MAX_RATE, MIN_RATE } from '../../batch/options.js';
import { UsageError } from '../command.js';

const pick = <K extends keyof typeof VERIFY_OPTIONS>(...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, VERIFY_OPTIONS[name]])) as { [N in K]: (typeof VERIFY_OPTIONS)[N] };

/** verify's flags for the target and the credentials, declared once there. */
export const CONNECTION_OPTIONS = pick(
  'base-url',
  'token',
  'token-url',
  'client-id',
  'client-secret',
  'scope',
  'auth-method',
  'cert',
  'key',
  'pfx',
  'ca',
  'allow-insecure-http',
);

export const PACE_OPTIONS = {
  concurrency: { type: 'string' },
  rate: { type: 'string' },
  journal: { type: 'string' },
} as const;

/** updateMany's own bounds, as the flags take them. */
export const BATCH_DEFAULTS = {
  concurrency: DEFAULT_CONCURRENCY,
  maxConcurrency: MAX_CONCURRENCY,
  minRate: MIN_RATE,
  maxRate: MAX_RATE,
} as const;

type ConnectionValues = {
  [K in keyof typeof CONNECTION_OPTIONS]?: (typeof CONNECTION_OPTIONS)[K] extends { type: 'boolean' }
    ? boolean
    : string;
};

/** verify's help lines for --base-url and the credentials, as verify prints them. */
export const CONNECTION_HELP: string[] = HELP_GROUPS.filter((group) =>
  group.options.some((option) => option in CONNECTION_OPTIONS && option !== 'allow-insecure-http'),
).flatMap((group) => [group.title, ...group.lines.map((line) => `  ${line}`)]);

export const CONCURRENCY_HELP: string[] = [
  `--concurrency N               requests in flight at most, 1 to ${BATCH_DEFAULTS.maxConcurrency} (default ${BATCH_DEFAULTS.concurrency});`,
  '                              lowered for a while after a 429 or 503',
];

export const RATE_HELP: string[] = [
  '--rate N                      requests per second at most (default: none; the pace is found from',
  "                              the service's 429s, Retry-After and rate-limit headers)",
];

export const SAFETY_HELP: string[] = [
  'Safety:',
  '  --allow-insecure-http         allow plain http to a host that is not loopback (default: refused);',
  '                                the token and secret would travel in clear',
];

export interface Connection {
  baseUrl: string;
  credentials: CredentialSource;
  /** --base-url is plain http to a host that is not loopback, let through by --allow-insecure-http. */
  insecureHttp: boolean;
}

/** --base-url and the credentials, checked as verify checks them; a UsageError naming the flag. */
export function connectionFrom(
  values: ConnectionValues,
  env: Readonly<Record<string, string | undefined>>,
): Connection {
  const allowInsecureHttp = values['allow-insecure-http'] === true;
  try {
    const { baseUrl, insecure } = checkBaseUrl(values['base-url'], allowInsecureHttp);
    const credentials = credentialsFrom({ ...values, 'allow-insecure-http': allowInsecureHttp }, env);
    if (credentials.kind === 'none') throw new UsageError(MISSING_CREDENTIALS);
    return { baseUrl, credentials, insecureHttp: insecure };
  } catch (error) {
    if (error instanceof VerifyUsageError || error instanceof CredentialError) throw new UsageError(error.message);
    throw error;
  }
}

export interface Pace {
  concurrency: number;
  /** Requests per second at most; undefined: found from the service's answers. */
  rate: number | undefined;
}

export function paceFrom(values: { concurrency?: string | undefined; rate?: string | undefined }): Pace {
  const { concurrency: c, rate: r } = values;
  let concurrency: number = BATCH_DEFAULTS.concurrency;
  if (c !== undefined) {
    if (!/^[0-9]+$/.test(c) || Number(c) < 1 || Number(c) > BATCH_DEFAULTS.maxConcurrency)
      throw new UsageError(
        `--concurrency must be a whole number from 1 to ${BATCH_DEFAULTS.maxConcurrency}, got "${c}"`,
      );
    concurrency = Number(c);
  }
  let rate: number | undefined;
  if (r !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(r) || Number(r) < BATCH_DEFAULTS.minRate || Number(r) > BATCH_DEFAULTS.maxRate)
      throw new UsageError(
        `--rate must be a number of requests per second from ${BATCH_DEFAULTS.minRate} to ${BATCH_DEFAULTS.maxRate}, got "${r}"`,
      );
    rate = Number(r);
  }
  return { concurrency, rate };
}
