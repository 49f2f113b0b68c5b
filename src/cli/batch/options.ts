// What update-many and export-keys read from the shared flags (declared once, in ../flags.ts): the
// target and credentials, checked as verify checks them, and the pace of the work.
import { MAX_CONCURRENCY, MAX_RATE, MIN_RATE, DEFAULT_CONCURRENCY } from '../../batch/options.js';
import {
  type CredentialSource,
  CredentialError,
  credentialsFrom,
  MISSING_CREDENTIALS,
} from '../connection/credentials.js';
import { baseUrlFlag } from '../connection/base-url.js';
import { UsageError, type Values } from '../command.js';
import { n } from '../../words.js';
import type { CONNECTION_FLAGS, SAFETY_FLAGS } from '../flags.js';

/** updateMany's own bounds, as the flags take them. */
export const BATCH_DEFAULTS = {
  concurrency: DEFAULT_CONCURRENCY,
  maxConcurrency: MAX_CONCURRENCY,
  minRate: MIN_RATE,
  maxRate: MAX_RATE,
} as const;

type ConnectionValues = Values<typeof CONNECTION_FLAGS & typeof SAFETY_FLAGS>;

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
    const { baseUrl, insecure } = baseUrlFlag(values['base-url'], allowInsecureHttp);
    const credentials = credentialsFrom({ ...values, 'allow-insecure-http': allowInsecureHttp }, env);
    if (credentials.kind === 'none') throw new UsageError(MISSING_CREDENTIALS);
    return { baseUrl, credentials, insecureHttp: insecure };
  } catch (error) {
    if (error instanceof CredentialError) throw new UsageError(error.message);
    throw error;
  }
}

/** What both commands say on stderr, before anything is sent, when --allow-insecure-http let plain http through. */
export const INSECURE_HTTP_WARNING =
  'warning: --allow-insecure-http: --base-url is plain http to a host that is not loopback; credentials travel in clear';

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
        `--rate must be a number of requests per second from ${n(BATCH_DEFAULTS.minRate)} to ${n(BATCH_DEFAULTS.maxRate)}, got "${r}"`,
      );
    rate = Number(r);
  }
  return { concurrency, rate };
}
